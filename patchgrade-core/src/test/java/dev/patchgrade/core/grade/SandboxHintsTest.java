package dev.patchgrade.core.grade;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class SandboxHintsTest {
    private static final List<Path> HIDDEN = List.of(Path.of("/home/ci"), Path.of("/work/project/src/test/patchgrade"));

    @Test
    void aWriteToTheReadOnlyHostPointsToWritablePaths() {
        assertThat(SandboxHints.forStderr("driver: cannot open /work/project/out.log: Read-only file system\n", HIDDEN, Suggestions.PLAIN))
                .singleElement().asString().contains("/work/project/out.log").contains("add the directory to the writablePaths setting");
        assertThat(SandboxHints.forStderr("sh: 1: cannot create /var/lib/x: Read-only file system", HIDDEN, Suggestions.PLAIN)).hasSize(1);
        assertThat(SandboxHints.forStderr("touch: cannot touch '/opt/cache/a': Read-only file system", HIDDEN, Suggestions.PLAIN))
                .singleElement().asString().contains("/opt/cache/a");
    }

    @Test
    void aReadOfAHiddenPathPointsToReadOnlyPaths() {
        assertThat(SandboxHints.forStderr("error: /home/ci/.local/lib/libfoo.so: No such file or directory", HIDDEN, Suggestions.PLAIN))
                .singleElement().asString().contains("/home/ci/.local/lib/libfoo.so").contains("add it to the readOnlyPaths setting");
        assertThat(SandboxHints.forStderr("cat: /home/ci/data.csv: Permission denied", HIDDEN, Suggestions.PLAIN)).singleElement().asString()
                .contains("hid /home/ci/data.csv");
    }

    @Test
    void aRefusedSocketPointsToTheSandboxSetting() {
        assertThat(SandboxHints.forStderr("socket: Address family not supported by protocol\n", HIDDEN, Suggestions.PLAIN)).singleElement()
                .asString().contains("TCP streams").contains("sandbox");
    }

    @Test
    void aMissingFileOutsideTheHiddenAreasIsTheProgramsOwnProblem() {
        assertThat(SandboxHints.forStderr("cat: /work/project/missing.txt: No such file or directory", HIDDEN, Suggestions.PLAIN)).isEmpty();
        assertThat(SandboxHints.forStderr("Segmentation fault", HIDDEN, Suggestions.PLAIN)).isEmpty();
        assertThat(SandboxHints.forStderr("", HIDDEN, Suggestions.PLAIN)).isEmpty();
        assertThat(SandboxHints.forStderr(null, HIDDEN, Suggestions.PLAIN)).isEmpty();
    }

    @Test
    void atMostThreeDistinctHints() {
        String many = "/a/1: Read-only file system\n/a/1: Read-only file system\n/a/2: Read-only file system\n"
                + "/a/3: Read-only file system\n/a/4: Read-only file system\n";
        assertThat(SandboxHints.forStderr(many, HIDDEN, Suggestions.PLAIN)).hasSize(3).doesNotHaveDuplicates();
    }
}
