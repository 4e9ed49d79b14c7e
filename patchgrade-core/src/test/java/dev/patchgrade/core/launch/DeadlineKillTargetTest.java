package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.GradeLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sandbox off, helper wrapped to run as nobody under a root JVM: the run rewrites the helper's pid file
 * (its own user's file) with the group of a root process, stops the helper, and waits for the JVM's deadline kill
 * (PosixCalls.killGroup, as root). The pid file's path is in the helper's /proc/PID/cmdline (readable though the
 * helper is not dumpable). The JVM now kills a group named there only when it leads its own group and runs as the
 * helper's user: nothing the helper's user could not kill itself.
 */
class DeadlineKillTargetTest {
    @TempDir
    Path dir;

    @Test
    void aRunCannotAimTheDeadlineKillAtAnUnrelatedGroup() throws Exception {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        Process victim = new ProcessBuilder("setsid", "sleep", "60").start();
        long pid = victim.pid();
        HelperTestHooks.startHelpersThrough("/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups");
        HelperTestHooks.answerMargin(Duration.ofMillis(500));
        try (Launcher launcher = Launchers.open(GradeLog.SILENT, SandboxSpec.off(), 1)) {
            String script = "exec 2>" + dir.resolve("log") + "; ls -la " + Scratch.base() + "/patchgrade-launch-*/ >&2; for f in $(tr '\\0' '\\n' < /proc/$PPID/cmdline | grep '[.]pid$'); do test -w $f && printf '%-11d\\n' " + pid
                    + " 1<> $f && echo aimed $f >&2; done; kill -STOP $PPID; sleep 30";
            try {
                LaunchResult r = launcher.launch(LaunchRequest.of(List.of("/bin/sh", "-c", script)).withWorkingDirectory(dir)
                        .withTimeout(Duration.ofSeconds(1)));
                System.out.println("RED-PID result " + r.exitCode() + " " + (r.stderr() == null ? null : r.stderr().excerpt()));
            } catch (RuntimeException e) {
                System.out.println("RED-PID launch failed: " + e.getMessage());
            }
            boolean died = victim.waitFor(3, TimeUnit.SECONDS);
            System.out.println("RED-PID log " + (Files.exists(dir.resolve("log")) ? Files.readString(dir.resolve("log")) : "none"));
            System.out.println("RED-PID victim " + pid + " died=" + died);
            assertThat(died).as("an unrelated root process group survives the deadline kill").isFalse();
        } finally {
            HelperTestHooks.startHelpersThrough("");
            HelperTestHooks.answerMargin(null);
            victim.destroyForcibly();
        }
    }

    @Test
    void theDeadlineKillStillTakesTheRunsOwnGroupWhenItsHelperIsStopped() throws Exception {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        for (String wrapper : List.of("", "/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups")) {
            Path pidOfSleeper = dir.resolve("sleeper" + wrapper.length());
            HelperTestHooks.startHelpersThrough(wrapper);
            HelperTestHooks.answerMargin(Duration.ofMillis(500));
            try (Launcher launcher = Launchers.open(GradeLog.SILENT, SandboxSpec.off(), 1)) {
                // Stops its helper first: the pid file must name the group before the target runs a line.
                String script = "kill -STOP $PPID; sleep 60 & echo $! > " + pidOfSleeper + "; wait";
                try {
                    launcher.launch(LaunchRequest.of(List.of("/bin/sh", "-c", script)).withWorkingDirectory(dir).withTimeout(Duration.ofSeconds(1)));
                } catch (RuntimeException expected) {
                    // launcher_failed: the helper was stopped
                }
            } finally {
                HelperTestHooks.startHelpersThrough("");
                HelperTestHooks.answerMargin(null);
            }
            boolean gone = RunGone.gone(Long.parseLong(Files.readString(pidOfSleeper).strip()), Duration.ofSeconds(5));
            assertThat(gone).as("the run's own background child (wrapper '%s') dies with its group", wrapper).isTrue();
        }
    }
}
