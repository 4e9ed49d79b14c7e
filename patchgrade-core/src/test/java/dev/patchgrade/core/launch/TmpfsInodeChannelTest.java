package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.GradeLog;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sandbox on: the zygote keeps a run's /tmp and /dev/shm for the next run
 * when the run left no entry there (fresh_tmpfs / left_something). A tmpfs numbers its inodes from a counter of its
 * own, so a run that creates and deletes a file K times leaves K in that counter: the next run creates one file and
 * reads K back from its inode number (and, likewise, from the directory's mtime). Fails if the value passes.
 */
class TmpfsInodeChannelTest {
    @TempDir
    Path dir;


    private static final String PROBE = "for d in /tmp /dev/shm; do : > $d/probe; stat -c %i $d/probe; rm $d/probe; done";

    @Test
    void aRunCannotPassANumberToTheNextThroughTheTmpfsInodeCounter() throws Exception {
        SandboxSpec spec = dev.patchgrade.core.SandboxAvailability.requiredShowing(dir);
        try (Launcher launcher = Launchers.open(GradeLog.SILENT, spec, 1)) {
            assertThat(launcher.sandbox().active()).isTrue();
            String before = launcher.launch(LaunchRequest.of(List.of("/bin/sh", "-c", PROBE)).withWorkingDirectory(dir)).stdout().excerpt();
            int secret = 437;
            LaunchResult writer = launcher.launch(LaunchRequest.of(List.of("/bin/sh", "-c",
                    "i=0; while [ $i -lt " + secret + " ]; do : > /tmp/x; rm /tmp/x; : > /dev/shm/x; rm /dev/shm/x; i=$((i+1)); done"))
                    // 874 processes: seconds on a busy host, and the default timeout is not what is asked here.
                    .withWorkingDirectory(dir).withTimeout(java.time.Duration.ofSeconds(120)));
            assertThat(writer.exitCode()).isZero();
            String after = launcher.launch(LaunchRequest.of(List.of("/bin/sh", "-c", PROBE)).withWorkingDirectory(dir)).stdout().excerpt();
            String[] b = before.strip().split("\\s+");
            String[] a = after.strip().split("\\s+");
            System.out.println("RED-TMPFS-CHANNEL before=" + String.join(",", b) + " after=" + String.join(",", a));
            for (int i = 0; i < 2; i++) {
                long delta = Long.parseLong(a[i]) - Long.parseLong(b[i]);
                assertThat(delta).as("inode numbers seen by the next run in %s do not carry the previous run's count (%s)",
                        i == 0 ? "/tmp" : "/dev/shm", secret).isLessThan(secret);
            }
        }
    }
}
