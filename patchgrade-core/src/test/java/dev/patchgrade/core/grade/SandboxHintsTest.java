package dev.patchgrade.core.grade;

import dev.patchgrade.core.Suggestions;
import dev.patchgrade.core.launch.SandboxSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class SandboxHintsTest {
    @TempDir
    Path dir;

    private List<String> hints(String stderr, List<Path> hidden, List<SandboxSpec> views) {
        return SandboxHints.forStderr(stderr, hidden, views, dir, Suggestions.PLAIN);
    }

    @Test
    void aWriteToAReadOnlyPathPointsToWritablePaths() {
        assertThat(hints("driver: cannot open /work/project/out.log: Read-only file system\n", List.of(), List.of())).singleElement().asString()
                .contains("/work/project/out.log").contains("add the directory to the writablePaths setting");
        assertThat(hints("touch: cannot touch '/opt/cache/a': Read-only file system", List.of(), List.of())).singleElement().asString()
                .contains("/opt/cache/a");
    }

    @Test
    void aPathTheViewDoesNotHoldPointsToReadOnlyPathsEvenWhenRelative() throws Exception {
        Path workload = Files.writeString(Files.createDirectories(dir.resolve("bench")).resolve("bench.lua"), "x");
        SandboxSpec view = new SandboxSpec(SandboxSpec.Mode.REQUIRED, List.of(dir.resolve("elsewhere")), List.of(), List.of());
        assertThat(hints("lua: cannot open bench/bench.lua\n", List.of(), List.of(view))).singleElement().asString()
                .contains(workload.toString()).contains("does not show").contains("readOnlyPaths");
    }

    @Test
    void aHiddenOraclePointsToNoSettingThatWouldShowIt() throws Exception {
        Path oracle = Files.writeString(dir.resolve("cases.jsonl"), "{}");
        SandboxSpec view = new SandboxSpec(SandboxSpec.Mode.REQUIRED, List.of(dir), List.of(), List.of(oracle));
        assertThat(hints("cat: " + oracle + ": Permission denied", List.of(oracle), List.of(view))).singleElement().asString()
                .contains("hid " + oracle).contains("no run may read").doesNotContain("add it");
    }

    @Test
    void aRefusedSocketPointsToTheSandboxSetting() {
        assertThat(hints("socket: Address family not supported by protocol\n", List.of(), List.of())).singleElement().asString()
                .contains("TCP streams").contains("sandbox");
    }

    @Test
    void aMissingFileOrAFileInTheViewIsTheProgramsOwnProblem() throws Exception {
        Path present = Files.writeString(dir.resolve("present.txt"), "x");
        SandboxSpec view = new SandboxSpec(SandboxSpec.Mode.REQUIRED, List.of(dir), List.of(), List.of());
        assertThat(hints("cat: " + dir.resolve("missing.txt") + ": No such file or directory", List.of(), List.of(view))).isEmpty();
        assertThat(hints("parse error in " + present, List.of(), List.of(view))).isEmpty();
        assertThat(hints("Segmentation fault", List.of(), List.of(view))).isEmpty();
        assertThat(hints("", List.of(), List.of(view))).isEmpty();
        assertThat(hints(null, List.of(), List.of(view))).isEmpty();
    }

    @Test
    void atMostThreeDistinctHints() {
        String many = "/a/1: Read-only file system\n/a/1: Read-only file system\n/a/2: Read-only file system\n"
                + "/a/3: Read-only file system\n/a/4: Read-only file system\n";
        assertThat(hints(many, List.of(), List.of())).hasSize(3).doesNotHaveDuplicates();
    }
}
