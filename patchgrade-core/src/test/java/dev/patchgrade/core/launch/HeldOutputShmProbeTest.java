package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.GradeLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** With the sandbox on, a candidate sees neither the scratch directory in /dev/shm nor another run's held output. */
class HeldOutputShmProbeTest {
    @TempDir
    Path dir;


    @Test
    void aSandboxedRunCannotSeeOrChangeAnotherRunsHeldOutput() throws Exception {
        SandboxSpec spec = dev.patchgrade.core.SandboxAvailability.requiredShowing(dir);
        String base = Scratch.base().toString();
        try (Launcher launcher = Launchers.open(GradeLog.SILENT, spec, 2)) {
            assertThat(launcher.sandbox().active()).isTrue();
            LaunchResult b = launcher.launch(LaunchRequest.of(List.of("/bin/sh", "-c", "echo B-OUTPUT")).withWorkingDirectory(dir).holdingOutput());
            String probe = "echo MOUNTS; grep -E ' /dev| /tmp' /proc/self/mountinfo; echo SHM; ls -la /dev/shm; df -k /dev/shm /tmp; "
                    + "echo SCRATCH; ls -la " + base + "/patchgrade-launch-* 2>&1; for f in " + base + "/patchgrade-launch-*/*; do echo X > $f && echo WROTE $f; done 2>&1; "
                    + "echo FDS; ls -l /proc/self/fd; echo PROCS; ls /proc | grep -E '^[0-9]+$' | tr '\\n' ' '; cat /proc/1/cmdline | tr '\\0' ' '; echo; id";
            CompletableFuture<LaunchResult> a = CompletableFuture.supplyAsync(() -> launcher.launch(
                    LaunchRequest.of(List.of("/bin/sh", "-c", probe)).withWorkingDirectory(dir)));
            String seen = a.get(60, TimeUnit.SECONDS).stdout().excerpt();
            System.out.println("RED-PROBE base=" + base + "\n" + seen + "\nERR " + a.get().stderr().excerpt());
            LaunchResult kept = b.keepOutputAs(dir.resolve("kept/b"));
            assertThat(Files.readString(dir.resolve("kept/b.stdout"))).isEqualTo("B-OUTPUT\n");
            assertThat(kept.stdout().excerpt()).isEqualTo("B-OUTPUT\n");
            assertThat(seen).doesNotContain("WROTE");
        }
    }
}
