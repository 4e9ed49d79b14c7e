package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.GradeLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sandbox off, pidfd path (CLONE_PIDFD, first look is the poll, finish_tree skipping has_children
 * on ECHILD): an orphan that burns CPU and ends while the target still runs (a zombie of the helper until finish_tree),
 * a daemon in a session of its own still running when the target exits, and a target kept alive past its deadline by a
 * second thread. Each must be counted (CPU, leftovers) or killed, and the helper must answer in time. Passes: defeated.
 */
class PidfdWaitOrphansTest {
    @TempDir
    Path dir;

    @Test
    void orphansAreCountedAndDaemonsKilledOnThePidfdPath() throws Exception {
        Path daemon = dir.resolve("daemon");
        String burn = "i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done";
        String script = "(sh -c '" + burn + "' &); sleep 2; (setsid sleep 30 & echo $! > " + daemon + "); sleep 0.2; exit 3";
        try (Launcher launcher = Launchers.open(GradeLog.SILENT, SandboxSpec.off(), 1)) {
            LaunchResult r = launcher.launch(LaunchRequest.of(List.of("/bin/sh", "-c", script)).withWorkingDirectory(dir));
            System.out.println("RED-PIDFD exit=" + r.exitCode() + " usage=" + r.usage() + " leftovers=" + r.leftovers());
            assertThat(r.exitCode()).isEqualTo(3);
            assertThat(r.usage().userMicros() + r.usage().systemMicros()).as("the orphan's CPU is counted").isGreaterThan(150_000);
            assertThat(r.leftovers()).as("the daemon is counted as a leftover").isGreaterThanOrEqualTo(1);
            long pid = Long.parseLong(Files.readString(daemon).strip());
            assertThat(ProcessHandle.of(pid).map(h -> h.onExit().completeOnTimeout(null, 2, TimeUnit.SECONDS).join() == null).orElse(false))
                    .as("the daemon is dead").isFalse();
            // A second thread keeps the target alive past its timeout: the pidfd poll must still reach the deadline kill.
            Path py = dir.resolve("thread.py");
            Files.writeString(py, "import threading, time\nthreading.Thread(target=lambda: time.sleep(30)).start()\n");
            LaunchResult t = launcher.launch(LaunchRequest.of(List.of("/usr/bin/python3", py.toString())).withWorkingDirectory(dir)
                    .withTimeout(java.time.Duration.ofSeconds(1)));
            System.out.println("RED-PIDFD thread exit=" + t.exitCode() + " timedOut=" + t.timedOut() + " wall=" + t.wallMicros());
            assertThat(t.timedOut()).as("a process whose main thread waits on another is still running at its deadline").isTrue();
        }
    }
}
