package dev.patchgrade.core.classify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReferenceFilesTest {
    @TempDir
    Path project;

    private Path file(String relative) throws Exception {
        Path file = project.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, relative);
        return file;
    }

    /** Red team 13: an interpreted reference froze and hid /bin/sh, and left its script readable and unfrozen. */
    @Test
    void anInterpretedReferenceFreezesAndHidesItsScriptNotTheInterpreter() throws Exception {
        Path script = file("frozen/ref.sh");
        file("data.txt");
        ReferenceFiles files = ReferenceFiles.of(Path.of("/bin/sh"), List.of("/bin/sh", "frozen/ref.sh", "--mode", "fast", "data.txt", "-x"), project);
        assertThat(files.frozen()).containsExactly(Path.of("/bin/sh"), script, project.resolve("data.txt"));
        assertThat(files.hiddenFromCandidates()).containsExactly(script, project.resolve("data.txt"));
        assertThat(files.hiddenFrom(List.of(Path.of("/bin/sh"), project.resolve("data.txt")), project, project))
                .as("a file the candidate names too stays visible; the interpreter's directory is never hidden").containsExactly(script);
    }

    /** Red team 13: a library beside the reference ($ORIGIN rpath) was visible, and a candidate dlopen'd it. */
    @Test
    void theCandidateDoesNotSeeTheDirectoryOfTheReferencesExecutable() throws Exception {
        Path reference = file("frozen/bin/ref");
        file("frozen/bin/libref.so");
        Path candidate = file("target/cand");
        ReferenceFiles files = ReferenceFiles.of(reference, List.of(reference.toString()), project);
        assertThat(files.hiddenFrom(List.of(candidate), project, project)).containsExactly(reference, reference.getParent());
        assertThat(files.hiddenFrom(List.of(project.resolve("frozen/bin/cand")), project, project))
                .as("a candidate in the same directory").containsExactly(reference);
        assertThat(files.hiddenFrom(List.of(candidate), project, project.resolve("frozen/bin/run")))
                .as("the working directory below it").containsExactly(reference);
        Path beside = file("ref");
        assertThat(ReferenceFiles.of(beside, List.of("./ref"), project).hiddenFrom(List.of(candidate), project, project))
                .as("a reference in the project directory itself").containsExactly(beside);
        assertThat(ReferenceFiles.of(reference, List.of("ref"), project).hiddenFrom(List.of(reference), project, project))
                .as("the candidate is the reference binary").isEmpty();
    }

    @Test
    void systemDirectoriesAreTheOperatingSystems() {
        assertThat(ReferenceFiles.system(Path.of("/usr/bin/python3"))).isTrue();
        assertThat(ReferenceFiles.system(Path.of("/bin/../bin/sh"))).isTrue();
        assertThat(ReferenceFiles.system(Path.of("/opt/ref/bin/tool"))).isFalse();
        assertThat(ReferenceFiles.system(project.resolve("frozen/ref"))).isFalse();
        assertThat(ReferenceFiles.system(Path.of("/usrx/ref"))).isFalse();
    }
}
