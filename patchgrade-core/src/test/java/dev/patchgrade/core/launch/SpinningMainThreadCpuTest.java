package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.Fixtures;
import dev.patchgrade.core.GradeLog;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A candidate whose main thread spins at SCHED_IDLE on the CPU its worker thread keeps
 * busy makes the main thread's run-queue delay (what the helper reads from /proc/pid/schedstat)
 * nearly its whole wall time, though no other process loaded the machine.
 */
class SpinningMainThreadCpuTest {

    @Test
    void anIdleSpinningMainThreadDoesNotHideItsOwnWorkersTime() {
        try (Launcher launcher = Launchers.open(GradeLog.SILENT, SandboxSpec.off())) {
            LaunchResult result = launcher.launch(LaunchRequest.of(List.of(Fixtures.command("idle_waiter"), "1000"))
                    // A second of CPU takes many seconds of wall time on a machine other builds keep busy.
                    .withTimeout(java.time.Duration.ofSeconds(120)));
            assertThat(result.exitedZero()).as(result.outcome()).isTrue();
            long cpuMillis = (result.usage().userMicros() + result.usage().systemMicros()) / 1000;
            String figures = String.format("wall %d ms, cpu %d ms, waited %d ms, load-free %d ms, cores %d", result.wallMillis(), cpuMillis,
                    result.usage().cpuWaitMicros() / 1000, result.loadFreeMillis(), Runtime.getRuntime().availableProcessors());
            // The worker's second of CPU ran on the one CPU the main thread waited for: none of that waiting is load,
            // so the time cannot be less than that work, however busy the machine is besides.
            assertThat(result.loadFreeMillis()).as(figures).isGreaterThanOrEqualTo(cpuMillis * 9 / 10);
        }
    }
}
