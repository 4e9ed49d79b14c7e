package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.GradeLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sandbox off, helper wrapped to run as nobody under a root JVM: the run stops its helper so the
 * JVM's deadline kill (killRun) is the only cleanup left, and arranges to escape it: (a) a child moved into a session
 * of its own (setsid) is outside the group the pid file names; (b) the pid file rewritten to 0 names no group at all,
 * so the target's own group survives. The helper is SIGKILLed, nobody runs finish_tree, and the processes outlive the
 * run and the launcher. Fails if any sleeper is still alive 5 s after the launcher is closed.
 */
class StoppedHelperKillTest {
    @TempDir
    Path dir;

    static boolean gone(Path pidFile) throws Exception {
        return RunGone.gone(pidFile, Duration.ofSeconds(5));
    }

    private void run(String wrapper, String script) throws Exception {
        HelperTestHooks.startHelpersThrough(wrapper);
        HelperTestHooks.answerMargin(Duration.ofMillis(500));
        try (Launcher launcher = Launchers.open(GradeLog.SILENT, SandboxSpec.off(), 1)) {
            try {
                LaunchResult r = launcher.launch(LaunchRequest.of(List.of("/bin/sh", "-c", script)).withWorkingDirectory(dir)
                        .withTimeout(Duration.ofSeconds(1)));
                System.out.println("RED-ESCAPE result " + r.exitCode());
            } catch (RuntimeException expected) {
                System.out.println("RED-ESCAPE launch failed: " + expected.getMessage());
            }
        } finally {
            HelperTestHooks.startHelpersThrough("");
            HelperTestHooks.answerMargin(null);
        }
    }

    @Test
    void aChildInASessionOfItsOwnDoesNotOutliveAStoppedHelper() throws Exception {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        for (String wrapper : List.of("/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups", "")) {
            Path sleeper = dir.resolve("setsid-sleeper" + wrapper.length());
            run(wrapper, "setsid sleep 60 & echo $! > " + sleeper + "; sleep 0.2; kill -STOP $PPID; sleep 60");
            assertThat(gone(sleeper)).as("a setsid child of the run (wrapper '%s') dies once the launcher is closed", wrapper).isTrue();
        }
    }

    @Test
    void aRunThatZeroesThePidFileDoesNotOutliveAStoppedHelper() throws Exception {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        for (String wrapper : List.of("/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups", "")) {
            Path sleeper = dir.resolve("zero-sleeper" + wrapper.length());
            run(wrapper, "for f in $(tr '\\0' '\\n' < /proc/$PPID/cmdline | grep '[.]pid$'); do printf '%-11d\\n' 0 1<> $f; done; "
                    + "sleep 60 & echo $! > " + sleeper + "; kill -STOP $PPID; wait");
            assertThat(gone(sleeper)).as("the run's own group (wrapper '%s') dies although it zeroed the pid file", wrapper).isTrue();
        }
    }
}
