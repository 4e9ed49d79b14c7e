package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sandbox off: held answers. With run N+1's request read ahead, the helper writes run N's answer only
 * once N+1 has started, so N+1's first act can be to stop or kill the helper (its parent, same user) before N's
 * answer is out. That may cost N its answer (launcher_failed, never a pass it did not earn), and must not hang the
 * JVM nor leave N+1's process behind once the launcher is closed. Each case is run as nobody (the non-dumpable
 * helper) and as root.
 */
class HeldAnswerIntegrityTest {
    @TempDir
    Path dir;

    private static String outcome(CompletableFuture<LaunchResult> run) throws Exception {
        try {
            return "exit " + run.get(60, TimeUnit.SECONDS).exitCode();
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(PatchgradeException.class);
            return ((PatchgradeException) e.getCause()).error().wireName();
        }
    }

    private List<String> attack(String signal) throws Exception {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        List<String> wrong = new ArrayList<>();
        for (String wrapper : List.of("/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups", "")) {
            Path sleeper = dir.resolve("sleeper-" + signal + wrapper.length());
            HelperTestHooks.startHelpersThrough(wrapper);
            HelperTestHooks.answerMargin(Duration.ofMillis(500));
            long t0 = System.nanoTime();
            String first;
            String second;
            try (Launcher launcher = Launchers.open(GradeLog.SILENT, SandboxSpec.off(), 1)) {
                CompletableFuture<LaunchResult> n = CompletableFuture.supplyAsync(() -> launcher.launch(
                        LaunchRequest.of(List.of("/bin/sh", "-c", "sleep 0.5; exit 7")).withWorkingDirectory(dir)
                                .withTimeout(Duration.ofSeconds(2))));
                Thread.sleep(150);
                // Queued behind N: read ahead by the helper, started the moment N ends, before N's answer is written.
                CompletableFuture<LaunchResult> next = CompletableFuture.supplyAsync(() -> launcher.launch(
                        LaunchRequest.of(List.of("/bin/sh", "-c", "kill -" + signal + " $PPID; echo $$ > " + sleeper + "; exec sleep 30"))
                                .withWorkingDirectory(dir).withTimeout(Duration.ofSeconds(2))));
                first = outcome(n);
                second = outcome(next);
            } finally {
                HelperTestHooks.startHelpersThrough("");
                HelperTestHooks.answerMargin(null);
            }
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            String as = " (" + signal + ", wrapper '" + wrapper + "')";
            System.out.println("RED-HELD " + as + ": N " + first + ", N+1 " + second + ", " + ms + " ms");
            if (!List.of("exit 7", "launcher_failed").contains(first)) {
                wrong.add("run N got " + first + as);
            }
            if (!"launcher_failed".equals(second)) {
                wrong.add("run N+1 got " + second + as);
            }
            if (ms > 2_000 + 500 + HelperProcess.CLEANUP.toMillis() + 10_000) {
                wrong.add("took " + ms + " ms" + as);
            }
            if (!StoppedHelperCleanupTest.gone(sleeper)) {
                wrong.add("N+1's process outlived the launcher" + as);
            }
        }
        return wrong;
    }

    @Test
    void aQueuedRunThatStopsTheHelperBeforeTheHeldAnswerForgesNothingAndLeavesNothing() throws Exception {
        assertThat(attack("STOP")).isEmpty();
    }

    @Test
    void aQueuedRunThatKillsTheHelperBeforeTheHeldAnswerForgesNothingAndLeavesNothing() throws Exception {
        assertThat(attack("KILL")).isEmpty();
    }
}
