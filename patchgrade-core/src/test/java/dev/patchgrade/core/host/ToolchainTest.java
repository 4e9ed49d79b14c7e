package dev.patchgrade.core.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.patchgrade.core.PatchgradeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class ToolchainTest {
    @TempDir
    Path dir;

    @Test
    void readsTheFirstLineOfVersion() throws Exception {
        Path cc = script("cc", "echo 'fake-cc (Fake) 1.2.3'; echo 'Copyright nobody'");
        assertThat(Toolchain.identify(cc.toString())).isEqualTo("fake-cc (Fake) 1.2.3");
    }

    @Test
    @Timeout(60)
    void aCompilerThatNeverAnswersIsKilledAtTheDeadline() throws Exception {
        Path pid = dir.resolve("pid");
        // The child keeps the output open: a reader of a pipe would block until it exits.
        Path cc = script("cc", "echo partial; echo $$ > '" + pid + "'; exec sleep 600");
        assertThatThrownBy(() -> Toolchain.identify(cc.toString(), Duration.ofSeconds(1)))
                .isInstanceOf(PatchgradeException.class)
                .hasMessageContaining("did not finish in 1 s")
                .satisfies(e -> assertThat(((PatchgradeException) e).errorName()).isEqualTo("toolchain_unavailable"));
        long sleeper = Long.parseLong(Files.readString(pid).strip());
        assertThat(ProcessHandle.of(sleeper).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    }

    private Path script(String name, String body) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }
}
