package dev.patchgrade.core.classify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.RecordingLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the reference lives, what of it is frozen, and what the candidate may not see. */
class ReferenceHomeTest {
    @TempDir
    Path dir;

    private Path install(String relative) throws Exception {
        Path file = dir.resolve(relative);
        Files.createDirectories(file.getParent());
        return Files.copy(Path.of("/bin/echo"), file, StandardCopyOption.COPY_ATTRIBUTES);
    }

    @Test
    void theDefaultHomeIsTheExecutablesDirectoryOrThePrefixAboveBin() throws Exception {
        Path prefixed = install("target/frozen/bin/ref");
        Path plain = install("refdist/ref");
        assertThat(ReferenceHome.of(prefixed, List.of(prefixed.toString()), null, dir).home()).isEqualTo(dir.resolve("target/frozen").toRealPath());
        assertThat(ReferenceHome.of(plain, List.of(plain.toString()), null, dir).home()).isEqualTo(dir.resolve("refdist").toRealPath());
    }

    @Test
    void aLinkedExecutablesHomeIsWhereTheFileIs() throws Exception {
        Path real = install("store/bin/ref");
        Path link = Files.createDirectories(dir.resolve("frozen/bin")).resolve("ref");
        Files.createSymbolicLink(link, real);
        assertThat(ReferenceHome.of(link, List.of(link.toString()), null, dir).home()).isEqualTo(dir.resolve("store").toRealPath());
    }

    @Test
    void aSystemProgramHasNoHomeOfItsOwn() {
        PatchgradeException error = catchThrowableOfType(PatchgradeException.class,
                () -> ReferenceHome.of(Path.of("/bin/sh"), List.of("/bin/sh", "ref.sh"), null, dir));
        assertThat(error.getMessage()).contains("referenceHome").contains("program of the system");
        PatchgradeException configured = catchThrowableOfType(PatchgradeException.class,
                () -> ReferenceHome.of(Path.of("/bin/sh"), List.of("/bin/sh"), Path.of("/usr/lib"), dir));
        assertThat(configured.getMessage()).contains("a directory of the system");
    }

    @Test
    void theSidecarFreezesTheExecutableAndTheFilesItsCommandNamesInsideTheHome() throws Exception {
        Path home = Files.createDirectories(dir.resolve("frozen"));
        Path script = Files.writeString(home.resolve("ref.sh"), "echo\n");
        Path input = Files.writeString(dir.resolve("input.txt"), "x\n");
        ReferenceHome reference = ReferenceHome.of(Path.of("/bin/sh"), List.of("/bin/sh", "frozen/ref.sh", "input.txt"), home, dir);
        assertThat(reference.frozen()).containsExactly(Path.of("/bin/sh"), script);
        assertThat(reference.frozen()).doesNotContain(input);
    }

    @Test
    void theCandidateLosesTheHomeUnlessTheDefaultHomeHoldsIt() throws Exception {
        Path reference = install("frozen/bin/ref");
        Path candidate = install("target/cand");
        RecordingLog log = new RecordingLog();
        ReferenceHome home = ReferenceHome.of(reference, List.of(reference.toString()), null, dir);
        assertThat(home.hiddenFromCandidate(candidate, dir, log)).containsExactly(dir.resolve("frozen").toRealPath());
        Path besideReference = install("bin/ref");
        Path besideCandidate = install("bin/cand");
        ReferenceHome shared = ReferenceHome.of(besideReference, List.of(besideReference.toString()), null, dir);
        assertThat(shared.hiddenFromCandidate(besideCandidate, dir, log)).as("only the executable, with a warning")
                .containsExactly(besideReference);
        assertThat(log.warnings).singleElement().asString().contains("holds the candidate").contains("prefix of its own");
        assertThat(home.hiddenFromCandidate(reference, dir, log)).as("the candidate is the reference's own executable").isEmpty();
    }

    @Test
    void aConfiguredHomeHoldingTheCandidateOrTheWorkingDirectoryIsAnError() throws Exception {
        Path reference = install("bin/ref");
        Path candidate = install("bin/cand");
        ReferenceHome home = ReferenceHome.of(reference, List.of(reference.toString()), dir.resolve("bin"), dir);
        assertThat(catchThrowableOfType(PatchgradeException.class, () -> home.hiddenFromCandidate(candidate, dir, new RecordingLog())).getMessage())
                .contains("holds the candidate");
        assertThat(catchThrowableOfType(PatchgradeException.class, () -> ReferenceHome.of(reference, List.of(reference.toString()), dir, dir))
                .getMessage()).contains("holds the working directory");
    }
}
