package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.GradeLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sandbox on: a run's private /tmp and /dev/shm were tmpfs mounts with no size= option, so each could take
 * half the machine's memory, in files no OOM kill takes back. Each now holds at most a sixteenth of memory and 65,536
 * files, and the zygote replaces both as soon as the run's tree is reaped.
 */
class PrivateTmpfsBoundTest {
    @TempDir
    Path dir;


    @Test
    void aRunsPrivateTmpfsIsBoundedAndFreedWhenItEnds() throws Exception {
        SandboxSpec spec = dev.patchgrade.core.SandboxAvailability.requiredShowing(dir);
        try (Launcher launcher = Launchers.open(GradeLog.SILENT, spec, 2)) {
            assertThat(launcher.sandbox().active()).isTrue();
            long before = MemInfo.shmemKb();
            LaunchResult fill = launcher.launch(LaunchRequest.of(List.of("/bin/sh", "-c",
                    "for i in 1 2 3 4 5; do head -c 60000000 /dev/zero > /tmp/f$i; head -c 60000000 /dev/zero > /dev/shm/f$i; done; "
                            + "df -k /tmp /dev/shm | tail -2")).withWorkingDirectory(dir));
            long after = MemInfo.shmemKb();
            System.out.println("RED-TMPFS exit=" + fill.exitCode() + " shmem delta KiB=" + (after - before) + "\n" + fill.stdout().excerpt()
                    + fill.stderr().excerpt());
            long machineKb = Long.parseLong(Files.readAllLines(Path.of("/proc/meminfo")).get(0).replaceAll("[^0-9]", ""));
            for (String line : fill.stdout().excerpt().strip().split("\n")) {
                long sizeKb = Long.parseLong(line.trim().split("\\s+")[1]);
                assertThat(sizeKb).as("a run's tmpfs is capped well below the machine's memory (%s KiB): %s", machineKb, line)
                        .isLessThan(machineKb / 8);
            }
            assertThat(after - before).as("600 MB written to the run's tmpfs are freed once the run has ended").isLessThan(100_000);
        }
    }
}
