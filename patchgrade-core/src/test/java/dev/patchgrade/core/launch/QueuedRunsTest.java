package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.patchgrade.core.Fixtures;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.SandboxAvailability;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * More callers than children: runs queue on the helpers ({@link Launchers#open(GradeLog, SandboxSpec, int)}),
 * never run beside each other, and a run queued behind a helper that failed fails too instead of waiting.
 */
class QueuedRunsTest {
    @TempDir
    Path dir;

    @AfterEach
    void clearProperties() {
        HelperTestHooks.answerMargin(null);
    }

    private static long liveHelpers() {
        return ProcessHandle.current().children().filter(p -> p.info().command().orElse("").endsWith("pg-launch-helper")).count();
    }

    /** Whether one of this JVM's helpers is in state T (stopped), from /proc. */
    private static boolean stoppedHelper() {
        return ProcessHandle.current().children().filter(p -> p.info().command().orElse("").endsWith("pg-launch-helper")).anyMatch(p -> {
            try {
                String stat = Files.readString(Path.of("/proc", Long.toString(p.pid()), "stat"));
                return stat.substring(stat.lastIndexOf(')') + 2).startsWith("T");
            } catch (java.io.IOException e) {
                return false;
            }
        });
    }

    @Test
    void runsQueuedByFourCallersOnOneChildNeverOverlap() throws Exception {
        Path lock = dir.resolve("lock");
        // A second child running beside the first finds the lock taken and exits 3.
        LaunchRequest exclusive = LaunchRequest.of(List.of("/bin/sh", "-c", "mkdir " + lock + " || exit 3; sleep 0.02; rmdir " + lock));
        long helpersBefore = liveHelpers();
        try (Launcher launcher = Launchers.open(GradeLog.SILENT, SandboxSpec.off(), 1)) {
            List<CompletableFuture<List<Integer>>> callers = new ArrayList<>();
            for (int caller = 0; caller < 4; caller++) {
                callers.add(CompletableFuture.supplyAsync(() -> {
                    List<Integer> codes = new ArrayList<>();
                    for (int run = 0; run < 10; run++) {
                        codes.add(launcher.launch(exclusive).exitCode());
                    }
                    return codes;
                }));
            }
            for (CompletableFuture<List<Integer>> caller : callers) {
                assertThat(caller.get(120, TimeUnit.SECONDS)).as("every run had the machine to itself").containsOnly(0);
            }
            assertThat(liveHelpers() - helpersBefore).as("one child at a time: one helper").isEqualTo(1);
        }
    }

    @Test
    void aRunQueuedBehindAStoppedHelperFailsInsteadOfWaiting() throws Exception {
        HelperTestHooks.answerMargin(Duration.ofMillis(500));
        try (Launcher launcher = Launchers.open(GradeLog.SILENT, SandboxSpec.off(), 1)) {
            // Its child stops the helper (sandbox off: nothing prevents it) and the deadline has to end it.
            CompletableFuture<LaunchResult> stopper = CompletableFuture.supplyAsync(() -> launcher.launch(
                    LaunchRequest.of(List.of(Fixtures.command("stop_parent"))).withWorkingDirectory(dir).withTimeout(Duration.ofSeconds(1))));
            // Queued only once the helper is stopped: queued earlier, on a busy machine it could run first and pass.
            for (int i = 0; i < 3000 && !stoppedHelper(); i++) {
                Thread.sleep(10);
            }
            assertThat(stoppedHelper()).as("the candidate stopped its helper").isTrue();
            long started = System.nanoTime();
            CompletableFuture<LaunchResult> queued = CompletableFuture.supplyAsync(() -> launcher.launch(
                    LaunchRequest.of(List.of("/bin/sh", "-c", "exit 7"))));
            for (CompletableFuture<LaunchResult> run : List.of(stopper, queued)) {
                assertThatThrownBy(() -> run.get(60, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                        .cause().isInstanceOf(PatchgradeException.class)
                        .satisfies(e -> assertThat(((PatchgradeException) e).errorName()).isEqualTo("launcher_failed"));
            }
            assertThat(Duration.ofNanos(System.nanoTime() - started)).as("bounded by the stopped run's deadline, not by a wait of its own")
                    .isLessThan(Duration.ofSeconds(30));
            assertThat(launcher.launch(LaunchRequest.of(List.of("/bin/sh", "-c", "exit 7"))).exitCode())
                    .as("the next run gets a fresh helper").isEqualTo(7);
        }
    }

    /**
     * The helper writes a run's answer once the run queued behind it has started, not once it has ended: here the
     * run behind waits for a file the test makes only after it has the first run's answer, so an answer held
     * until the next run ends would never come (the first caller would wait out its 20 s here).
     */
    @ParameterizedTest
    @EnumSource(value = SandboxSpec.Mode.class, names = {"OFF", "REQUIRED"})
    void aRunsAnswerDoesNotWaitForTheRunQueuedBehindIt(SandboxSpec.Mode mode) throws Exception {
        SandboxSpec spec = mode == SandboxSpec.Mode.OFF ? SandboxSpec.off() : SandboxAvailability.requiredShowing(dir);
        Path go = dir.resolve("go");
        try (Launcher launcher = Launchers.open(GradeLog.SILENT, spec, 1)) {
            // A second long: the run behind is queued, and read ahead by the helper, well before it ends.
            CompletableFuture<LaunchResult> first = CompletableFuture.supplyAsync(() -> launcher.launch(
                    LaunchRequest.of(List.of("/bin/sh", "-c", "sleep 1; echo first; exit 5"))));
            Thread.sleep(100);
            CompletableFuture<LaunchResult> behind = CompletableFuture.supplyAsync(() -> launcher.launch(
                    LaunchRequest.of(List.of("/bin/sh", "-c", "while [ ! -e " + go + " ]; do sleep 0.01; done; echo behind"))
                            .withTimeout(Duration.ofSeconds(60))));
            LaunchResult answered = first.get(20, TimeUnit.SECONDS);
            assertThat(answered.exitCode()).isEqualTo(5);
            assertThat(behind).as("the run behind is still waiting for the file").isNotDone();
            Files.createFile(go);
            LaunchResult last = behind.get(60, TimeUnit.SECONDS);
            assertThat(last.timedOut()).isFalse();
            assertThat(last.exitCode()).isZero();
            assertThat(launcher.launch(LaunchRequest.of(List.of("/bin/sh", "-c", "exit 9"))).exitCode()).as("answers stay in order")
                    .isEqualTo(9);
        }
    }

    @Test
    void heldOutputBecomesAFileOnlyWhereTheCallerKeepsIt() throws Exception {
        LaunchRequest talk = LaunchRequest.of(List.of("/bin/sh", "-c", "echo out; echo err >&2")).holdingOutput();
        for (boolean helper : new boolean[] {true, false}) {
            if (!helper) {
                System.setProperty(Launchers.MODE_PROPERTY, "direct");
            }
            try (Launcher launcher = Launchers.open(GradeLog.SILENT, SandboxSpec.off(), 1)) {
                LaunchResult held = launcher.launch(talk);
                Path heldOut = held.stdout().file();
                assertThat(heldOut).as("held: readable until the caller decides").isNotNull();
                assertThat(Files.readString(heldOut)).isEqualTo("out\n");
                LaunchResult kept = held.keepOutputAs(dir.resolve("kept").resolve("case-1"));
                assertThat(kept.stdout().file()).isEqualTo(dir.resolve("kept/case-1.stdout").toAbsolutePath());
                assertThat(Files.readString(kept.stdout().file())).isEqualTo("out\n");
                assertThat(Files.readString(kept.stderr().file())).isEqualTo("err\n");
                assertThat(kept.stdout().sha256()).isEqualTo(held.stdout().sha256());
                assertThatThrownBy(() -> held.keepOutputAs(dir.resolve("again"))).isInstanceOf(IllegalStateException.class);

                LaunchResult other = launcher.launch(talk);
                LaunchResult released = other.released();
                assertThat(released.stdout().file()).as("released: names no file").isNull();
                assertThat(released.stdout().sha256()).isEqualTo(held.stdout().sha256());
                if (!helper) {
                    assertThat(other.stdout().file()).as("a one-time file goes when released").doesNotExist();
                }
                LaunchResult plain = launcher.launch(LaunchRequest.of(List.of("/bin/sh", "-c", "echo out")));
                assertThat(plain.stdout().file()).as("neither kept nor held: no file named").isNull();
            } finally {
                System.clearProperty(Launchers.MODE_PROPERTY);
            }
        }
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("kept");
        }
    }
}
