package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.GradeLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sandbox off: killRun continues the helper every 20 ms for up to 2 s so that it kills its
 * own tree. A child in a session of its own re-stops the helper in a tight loop ({@code kill} is a shell builtin, so
 * a SIGSTOP follows each SIGCONT within microseconds): the helper never gets far enough to run finish_tree, the
 * pid-file group kill misses the looper (another session), and the helper's SIGKILL orphans it. Fails if the looper
 * (or the sleeper it keeps) is alive 5 s after the launcher is closed, or if launch or close hangs.
 */
class StoppedHelperCleanupTest {
    @TempDir
    Path dir;

    static boolean gone(Path pidFile) throws Exception {
        return RunGone.gone(pidFile, Duration.ofSeconds(5));
    }

    private long[] run(String wrapper, String script) throws Exception {
        return run(wrapper, script, 1);
    }

    private long[] run(String wrapper, String script, int timeoutSeconds) throws Exception {
        HelperTestHooks.startHelpersThrough(wrapper);
        HelperTestHooks.answerMargin(Duration.ofMillis(500));
        long launchMs;
        long closeStart;
        try {
            Launcher launcher = Launchers.open(GradeLog.SILENT, SandboxSpec.off(), 1);
            long t0 = System.nanoTime();
            try {
                LaunchResult r = launcher.launch(LaunchRequest.of(List.of("/bin/sh", "-c", script)).withWorkingDirectory(dir)
                        .withTimeout(Duration.ofSeconds(timeoutSeconds)));
                System.out.println("RED-STOPLOOP result " + r.exitCode() + " timedOut=" + r.timedOut());
            } catch (RuntimeException expected) {
                System.out.println("RED-STOPLOOP launch failed: " + expected.getMessage());
            }
            launchMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            closeStart = System.nanoTime();
            launcher.close();
        } finally {
            HelperTestHooks.startHelpersThrough("");
            HelperTestHooks.answerMargin(null);
        }
        long closeMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closeStart);
        System.out.println("RED-STOPLOOP wrapper '" + wrapper + "' launch " + launchMs + " ms, close " + closeMs + " ms");
        return new long[] {launchMs, closeMs};
    }

    @Test
    void aChildThatKeepsStoppingTheHelperDoesNotOutliveTheLauncher() throws Exception {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        List<String> survivors = new ArrayList<>();
        List<String> slow = new ArrayList<>();
        for (String wrapper : List.of("/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups", "")) {
            Path looper = dir.resolve("looper" + wrapper.length());
            Path sleeper = dir.resolve("sleeper" + wrapper.length());
            // The looper waits until after the deadline's SIGTERM would have come, then never lets the helper run.
            // Three loopers (more than the cores), so that one is always on a CPU when the JVM continues the helper.
            String loop = "while :; do kill -STOP '$H' 2>/dev/null; done";
            String script = "H=$PPID; setsid sh -c 'sleep 60 & echo $! > " + sleeper + "; sleep 0.3; "
                    + loop + " & " + loop + " & " + loop + "' & echo $! > " + looper + "; sleep 60";
            long[] times = run(wrapper, script);
            if (times[0] > 1_000 + 500 + HelperProcess.CLEANUP.toMillis() + 5_000 || times[1] > 7_000) {
                slow.add("wrapper '" + wrapper + "': launch " + times[0] + " ms, close " + times[1] + " ms");
            }
            if (!gone(looper)) {
                survivors.add("looper (wrapper '" + wrapper + "')");
            }
            if (!gone(sleeper)) {
                survivors.add("sleeper (wrapper '" + wrapper + "')");
            }
        }
        assertThat(slow).as("launch and close return within deadline + cleanup + a few seconds").isEmpty();
        assertThat(survivors).as("processes of a run that kept re-stopping its helper, alive 5 s after the launcher closed").isEmpty();
    }

    /**
     * The same, with the helper's /proc walk made slow: kill_descendants looks each process's parent up by a linear
     * search, up to 64 levels, so 3000 processes at the bottom of a 60-deep chain (in a session of their own, so the
     * group kill misses them) cost it some 3000 x 60 x 3000 comparisons a pass, and the STOP loop gets it mid-pass.
     */
    @Test
    void aSlowProcWalkPlusAStopLoopDoesNotLeaveProcessesBehind() throws Exception {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path chain = dir.resolve("chain.sh");
        // Every process of the run names this test's directory on its command line, so that the survivors counted below
        // are this run's and not those of another build on the machine: the sleeps run through a link in it.
        Path sleep = Files.createSymbolicLink(dir.resolve("sleep"), Path.of("/bin/sleep"));
        Files.writeString(chain, "n=$1\nif [ \"$n\" -gt 0 ]; then sh \"$0\" $((n-1)) \"$2\"; else i=0; "
                + "while [ $i -lt 3000 ]; do " + sleep + " 60 & i=$((i+1)); done; echo $$ > \"$2\"; wait; fi\n");
        List<String> survivors = new ArrayList<>();
        String wrapper = "";
        Path looper = dir.resolve("slow-looper");
        Path bottom = dir.resolve("bottom");
        String loop = "while :; do kill -STOP '$H' 2>/dev/null; done";
        String script = "H=$PPID; setsid sh " + chain + " 60 " + bottom + " & while [ ! -s " + bottom + " ]; do sleep 0.1; done; "
                + "setsid sh -c ': " + dir + "; " + loop + " & " + loop + " & " + loop + "' & echo $! > " + looper + "; " + sleep + " 60";
        long[] times = run(wrapper, script, 8);
        Thread.sleep(1000);
        String ours = dir.toString();
        long left = ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("").contains(sleep + " 60")).count();
        System.out.println("RED-STOPLOOP slow walk: sleep processes left 1 s after close: " + left);
        if (!gone(looper)) {
            survivors.add("looper");
        }
        // Killed processes on a busy machine take a moment to exit: those still there after 5 s outlived the run.
        java.util.function.Supplier<List<ProcessHandle>> runs = () -> ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().orElse("").contains(ours)).toList();
        for (int i = 0; i < 50 && !runs.get().isEmpty(); i++) {
            Thread.sleep(100);
        }
        runs.get().forEach(p -> { survivors.add("pid " + p.pid()); p.destroyForcibly(); });
        // A bound, not a speed: killing 3,000 processes beside busy loops took 7 s past the deadline once.
        assertThat(times[0]).as("launch returns within deadline + cleanup, never hangs").isLessThan(8_000 + 500 + 2_000 + 30_000);
        assertThat(survivors).as("processes left by a run that slowed the helper's walk and kept re-stopping it").isEmpty();
    }
}
