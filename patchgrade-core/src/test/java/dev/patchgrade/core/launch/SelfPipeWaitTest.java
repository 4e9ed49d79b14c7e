package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.Fixtures;
import dev.patchgrade.core.GradeLog;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The helper's wait without pidfds (macOS, kernels before 5.3): a SIGCHLD handler and a self-pipe.
 * Linux here has pidfds, so the helper is told not to use them.
 */
class SelfPipeWaitTest {
    private static Launcher launcher;

    @BeforeAll
    static void open() {
        System.setProperty(HelperLauncher.PIDFD_PROPERTY, "false");
        launcher = Launchers.open(GradeLog.SILENT);
    }

    @AfterAll
    static void close() {
        launcher.close();
        System.clearProperty(HelperLauncher.PIDFD_PROPERTY);
    }

    @Test
    void exitCodesAndSignals() {
        assertThat(launcher.launch(LaunchRequest.of(List.of(Fixtures.command("crash"), "exit:5"))).exitCode()).isEqualTo(5);
        assertThat(launcher.launch(LaunchRequest.of(List.of(Fixtures.command("crash"), "segv"))).signal()).isEqualTo("SIGSEGV");
    }

    @Test
    void timeoutKillsAChildThatIgnoresSigterm() throws InterruptedException {
        LaunchResult result = launcher.launch(LaunchRequest.of(List.of(Fixtures.command("ignore_term_sleeper")))
                .withTimeout(Duration.ofMillis(300)));
        assertThat(result.timedOut()).isTrue();
        assertThat(result.wallMillis()).as("the timeout was honoured").isGreaterThanOrEqualTo(300);
        assertThat(Fixtures.aliveAfterSettling("ignore_term_sleeper")).isEmpty();
    }

    @Test
    void aGrandchildHoldingStdoutDoesNotHoldTheRun() throws InterruptedException {
        LaunchResult result = launcher.launch(LaunchRequest.of(List.of(Fixtures.command("escaping_grandchild"), "setsid"))
                .withTimeout(Duration.ofSeconds(20)));
        // Waiting for the grandchild's 30 s would have hit the 20 s timeout.
        assertThat(result.timedOut()).isFalse();
        assertThat(result.exitCode()).isZero();
        assertThat(Fixtures.aliveAfterSettling("escaping_grandchild")).isEmpty();
    }

    @Test
    void manyShortRunsInARow() {
        for (int i = 0; i < 200; i++) {
            LaunchResult result = launcher.launch(LaunchRequest.of(List.of(Fixtures.command("crash"), "exit:" + (i % 7))));
            assertThat(result.exitCode()).isEqualTo(i % 7);
        }
    }
}
