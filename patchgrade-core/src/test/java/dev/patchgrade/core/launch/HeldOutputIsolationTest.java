package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.SandboxAvailability;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Run N+1 rewrites run N's stdout file before the JVM hashes it. The JVM reads a run's output files only
 * once the answer is in, and with held answers that answer is written once the next queued run has started: N+1 is
 * always running by then. Without the sandbox the scratch directory is writable by the run's user (the helper's), so
 * N can note its stdout's path (/proc/$$/fd/1) and N+1 overwrite that file: N is graded on output it never wrote,
 * with N's own time and memory (the work done in N+1). Before held answers the same race was there, narrower (1 in 40
 * here, against 4 in 40 with them, with a shell; a program that rewrites at once does better). In the sandbox the
 * scratch directory is not in the run's view.
 */
class HeldOutputIsolationTest {
    private static final int TRIES = 20;

    @TempDir
    Path dir;

    /** How many of {@link #TRIES} runs N were graded on what N+1 wrote. */
    private int forgedOutputs(Supplier<Launcher> opener) throws Exception {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        int forged = 0;
        try (Launcher launcher = opener.get()) {
            for (int i = 0; i < TRIES; i++) {
                Path path = dir.resolve("path" + i);
                CompletableFuture<LaunchResult> n = CompletableFuture.supplyAsync(() -> launcher.launch(LaunchRequest.of(List.of("/bin/sh", "-c",
                        "f=$(readlink /proc/$$/fd/1); echo $f > " + path + "; echo wrong; sleep 0.3")).withWorkingDirectory(dir)
                        .withTimeout(Duration.ofSeconds(5))));
                Thread.sleep(100);
                CompletableFuture<LaunchResult> next = CompletableFuture.supplyAsync(() -> launcher.launch(LaunchRequest.of(List.of("/bin/sh", "-c",
                        "p=$(cat " + path + "); i=0; while [ $i -lt 300 ]; do echo forged-by-next-run > $p; i=$((i+1)); done"))
                        .withWorkingDirectory(dir).withTimeout(Duration.ofSeconds(5))));
                String out = n.get(30, TimeUnit.SECONDS).stdout().excerpt();
                next.get(30, TimeUnit.SECONDS);
                if (!out.equals("wrong\n")) {
                    forged++;
                }
            }
        }
        return forged;
    }

    @Test
    void inTheSandboxTheNextRunCannotReachThisRunsOutput() throws Exception {
        SandboxAvailability.assumeAvailable();
        assertThat(forgedOutputs(() -> Launchers.open(GradeLog.SILENT, SandboxAvailability.requiredShowing(dir), 1))).isZero();
    }

    @Test
    @Disabled("open hole: without the sandbox a queued run rewrites the previous run's stdout in the scratch directory before the JVM "
            + "hashes it; held answers guarantee the next run is running first")
    void withoutTheSandboxTheNextRunCannotRewriteThisRunsOutput() throws Exception {
        List<String> forged = new ArrayList<>();
        for (String wrapper : List.of("/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups", "")) {
            HelperTestHooks.startHelpersThrough(wrapper);
            try {
                int count = forgedOutputs(() -> Launchers.open(GradeLog.SILENT, SandboxSpec.off(), 1));
                if (count > 0) {
                    forged.add(count + "/" + TRIES + " with wrapper '" + wrapper + "'");
                }
            } finally {
                HelperTestHooks.startHelpersThrough("");
            }
        }
        assertThat(forged).as("runs graded on output the next run wrote").isEmpty();
    }
}
