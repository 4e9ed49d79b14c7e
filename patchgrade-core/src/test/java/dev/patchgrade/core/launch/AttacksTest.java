package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.patchgrade.core.Fixtures;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Attacks on the launcher by candidates that want a green grade, each with the sandbox required and
 * off. With the sandbox, every one fails; without it, the launcher still never reports a forged
 * figure, never hangs and leaves nothing running, and says the verdict is not tamper-proof.
 */
class AttacksTest {
    @TempDir
    Path dir;

    @AfterEach
    void clearProperties() {
        HelperTestHooks.answerMargin(null);
    }

    private Launcher open(SandboxSpec.Mode mode) {
        if (mode == SandboxSpec.Mode.REQUIRED) {
            dev.patchgrade.core.SandboxAvailability.assumeAvailable();
        }
        return Launchers.open(GradeLog.SILENT, dev.patchgrade.core.SandboxAvailability.view(mode, List.of(dir), List.of(), List.of()));
    }

    private LaunchRequest request(String fixture, String... args) {
        List<String> command = new java.util.ArrayList<>(List.of(Fixtures.command(fixture)));
        command.addAll(List.of(args));
        return LaunchRequest.of(command).withWorkingDirectory(dir);
    }

    @Test
    void aForgedReplyInTheLaunchersPipesIsNeverRead() {
        try (Launcher launcher = open(SandboxSpec.Mode.REQUIRED)) {
            LaunchResult result = launcher.launch(request("forge_reply"));
            assertThat(result.exitCode()).isEqualTo(7);
            assertThat(result.stdout().excerpt()).as("its parent's descriptors cannot be opened").isEqualTo("opened 0\n");
            LaunchResult next = launcher.launch(request("forge_reply"));
            assertThat(next.exitCode()).as("no injected request answered in its place").isEqualTo(7);
        }
    }

    @Test
    void stoppingItsParentDoesNothingInTheSandbox() {
        try (Launcher launcher = open(SandboxSpec.Mode.REQUIRED)) {
            long started = System.nanoTime();
            LaunchResult result = launcher.launch(request("stop_parent").withTimeout(Duration.ofSeconds(30)));
            assertThat(result.stdout().excerpt()).as("the process that waits for it is outside its PID namespace: no pid to name")
                    .isEqualTo("stop no parent\n");
            assertThat(result.exitCode()).isZero();
            assertThat(result.timedOut()).isFalse();
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(25));
        }
    }

    /**
     * What measures a run is outside its PID namespace, and PID 1 takes no signal from inside it: a target that stops
     * (or kills) every process it can signal and its parent reaches neither, so its run is answered as it ran, its
     * memory parked in sockets is still sampled, and the helper's next runs are measured and sandboxed.
     */
    @ParameterizedTest
    @ValueSource(strings = {"STOP", "KILL"})
    void signallingEveryProcessItCanReachesNeitherWhatMeasuresItNorTheNextRuns(String signal) {
        try (Launcher launcher = open(SandboxSpec.Mode.REQUIRED)) {
            LaunchResult signalled = launcher.launch(request("attacker", "signal-all", signal).withTimeout(Duration.ofSeconds(60)));
            assertThat(signalled.timedOut()).isFalse();
            assertThat(signalled.exitCode()).isZero();
            assertThat(signalled.stdout().excerpt()).startsWith("signalled ");
            if (launcher.method().contains("cgroup_")) {
                LaunchResult parked = launcher.launch(request("attacker", "signal-all", signal, "tcp-park", "200", "hold")
                        .withTimeout(Duration.ofSeconds(60)));
                assertThat(parked.exitCode()).isZero();
                assertThat(parked.stdout().excerpt()).endsWith("parked 200 MB\n");
                assertThat(parked.usage().treeRssKb()).as("sampled after the signals: " + parked.usage()).isGreaterThan(180_000L);
            }
            LaunchResult next = launcher.launch(LaunchRequest.of(List.of("/bin/sh", "-c", "echo $$; for p in /proc/[0-9]*; do echo ${p#/proc/}; done"))
                    .withWorkingDirectory(dir));
            assertThat(next.exitCode()).isZero();
            assertThat(next.stdout().excerpt()).as("the first process of its run, alone in its namespace").isEqualTo("2\n2\n");
        }
    }

    @Test
    void aStoppedHelperEndsTheRunWithLauncherFailedAndTheNextRunGetsAFreshOne() {
        HelperTestHooks.answerMargin(Duration.ofMillis(500));
        try (Launcher launcher = open(SandboxSpec.Mode.OFF)) {
            assertThatThrownBy(() -> launcher.launch(request("stop_parent").withTimeout(Duration.ofSeconds(1))))
                    .isInstanceOf(PatchgradeException.class)
                    .satisfies(e -> assertThat(((PatchgradeException) e).errorName()).isEqualTo("launcher_failed"))
                    .hasMessageContaining("no answer within 2 s");
            LaunchResult next = launcher.launch(LaunchRequest.of(List.of("/bin/sh", "-c", "exit 7")));
            assertThat(next.exitCode()).isEqualTo(7);
        }
        assertThat(ProcessHandle.current().children().filter(p -> p.info().command().orElse("").endsWith("pg-launch-helper")))
                .as("the stopped helper was killed").allMatch(p -> !p.isAlive());
    }

    @ParameterizedTest
    @ValueSource(strings = {"fork", "sibling"})
    void costSpentInAProcessNobodyWaitsForIsCounted(String mode) {
        List<SandboxSpec.Mode> modes = dev.patchgrade.core.SandboxAvailability.available()
                ? List.of(SandboxSpec.Mode.REQUIRED, SandboxSpec.Mode.OFF) : List.of(SandboxSpec.Mode.OFF);
        for (SandboxSpec.Mode sandbox : modes) {
            try (Launcher launcher = open(sandbox)) {
                // Far beyond the work's second or so: a busy machine must not turn either run into a timeout.
                LaunchResult honest = launcher.launch(request("hide_cost", "inline", "64", "30000000").withTimeout(Duration.ofSeconds(120)));
                LaunchResult hiding = launcher.launch(request("hide_cost", mode, "64", "30000000").withTimeout(Duration.ofSeconds(120)));
                assertThat(hiding.stdout().excerpt()).isEqualTo(honest.stdout().excerpt());
                assertThat(hiding.usage().maxRssKb()).as(sandbox + ": the child's 64 MB").isGreaterThan(60_000L);
                assertThat(hiding.usage().userMicros()).as(sandbox + ": the child's CPU")
                        .isGreaterThan(honest.usage().userMicros() / 2);
                assertThat(hiding.leftovers()).isEqualTo(1);
                assertThat(honest.leftovers()).isZero();
            }
        }
        assertThat(Fixtures.alive("hide_cost")).isEmpty();
    }

    @Test
    void replacingItsOutputWithALinkToDevZeroIsRefusedInTheSandbox() {
        try (Launcher launcher = open(SandboxSpec.Mode.REQUIRED)) {
            LaunchResult result = launcher.launch(request("replace_stdout"));
            assertThat(result.stdout().excerpt()).isEqualTo("ok\n");
            assertThat(result.stderr().excerpt()).isEqualTo("unlink -1 symlink -1\n");
        }
    }

    @Test
    void replacingItsOutputWithALinkToDevZeroIsAnErrorNotAHangWithoutTheSandbox() throws Exception {
        try (Launcher launcher = open(SandboxSpec.Mode.OFF)) {
            CompletableFuture<LaunchResult> run = CompletableFuture.supplyAsync(() -> launcher.launch(request("replace_stdout")));
            assertThatThrownBy(() -> run.get(60, TimeUnit.SECONDS)).cause().isInstanceOf(PatchgradeException.class)
                    .satisfies(e -> assertThat(((PatchgradeException) e).errorName()).isEqualTo("output_tampered"))
                    .hasMessageContaining("no longer a regular file");
        }
    }

    @ParameterizedTest
    @EnumSource(value = SandboxSpec.Mode.class, names = {"REQUIRED", "OFF"})
    void aDaemonLeftBehindDiesWithTheRun(SandboxSpec.Mode mode) throws Exception {
        Path target = dir.resolve("report.xml");
        if (mode == SandboxSpec.Mode.REQUIRED) {
            dev.patchgrade.core.SandboxAvailability.assumeAvailable();
        }
        SandboxSpec writable = dev.patchgrade.core.SandboxAvailability.view(mode, List.of(dir), List.of(dir), List.of());
        try (Launcher launcher = Launchers.open(GradeLog.SILENT, writable)) {
            LaunchResult result = launcher.launch(request("late_daemon", target.toString(), "0"));
            assertThat(result.leftovers()).isEqualTo(1);
        }
        Thread.sleep(1_500);
        assertThat(target).as("the daemon was killed before it could write").doesNotExist();
        assertThat(Fixtures.alive("late_daemon")).isEmpty();
    }

    @Test
    void aDaemonDiesWithAKilledHelperInTheSandbox() throws Exception {
        dev.patchgrade.core.SandboxAvailability.assumeAvailable();
        Path target = dir.resolve("report.xml");
        SandboxSpec writable = dev.patchgrade.core.SandboxAvailability.view(SandboxSpec.Mode.REQUIRED, List.of(dir), List.of(dir), List.of());
        try (Launcher launcher = Launchers.open(GradeLog.SILENT, writable)) {
            CompletableFuture<LaunchResult> run = CompletableFuture.supplyAsync(() -> launcher.launch(
                    request("late_daemon", target.toString(), "30").withTimeout(Duration.ofSeconds(60))));
            for (int i = 0; i < 500 && Fixtures.alive("late_daemon").size() < 2; i++) {
                Thread.sleep(10);
            }
            ProcessHandle.current().children().filter(p -> p.info().command().orElse("").endsWith("pg-launch-helper"))
                    .forEach(ProcessHandle::destroyForcibly);
            assertThatThrownBy(() -> run.get(60, TimeUnit.SECONDS)).cause().isInstanceOf(PatchgradeException.class)
                    .satisfies(e -> assertThat(((PatchgradeException) e).errorName()).isEqualTo("launcher_failed"));
        }
        Thread.sleep(1_500);
        assertThat(target).doesNotExist();
        assertThat(Fixtures.aliveAfterSettling("late_daemon")).isEmpty();
        assertThat(Files.exists(target)).isFalse();
    }
}
