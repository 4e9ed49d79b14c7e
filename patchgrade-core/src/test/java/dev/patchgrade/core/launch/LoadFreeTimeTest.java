package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.Fixtures;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.SandboxAvailability;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The time a digest buckets is the wall time less the run-queue delay: a CPU-bound run that shares
 * its CPU with a busy loop waits about half its wall time, and that half must not count. Both
 * processes are pinned to one CPU, so the share is set by the scheduler, not by how busy the
 * machine is today: more load only makes the waiting larger.
 */
class LoadFreeTimeTest {

    @Test
    void timeWaitingForACpuIsNotCountedWithTheSandboxOff() throws Exception {
        try (Launcher launcher = Launchers.open(GradeLog.SILENT, SandboxSpec.off())) {
            assertWaitingIsTakenOut(launcher);
        }
    }

    @Test
    void timeWaitingForACpuIsNotCountedInTheSandbox() throws Exception {
        SandboxAvailability.assumeAvailable();
        try (Launcher launcher = Launchers.open(GradeLog.SILENT, dev.patchgrade.core.SandboxAvailability.view(SandboxSpec.Mode.REQUIRED, List.of(), List.of(), List.of()))) {
            assertThat(launcher.sandbox().active()).as(launcher.sandbox().describe()).isTrue();
            assertWaitingIsTakenOut(launcher);
        }
    }

    @Test
    void sleepingKeepsEveryMillisecond() {
        try (Launcher launcher = Launchers.open(GradeLog.SILENT, SandboxSpec.off())) {
            LaunchResult result = launcher.launch(LaunchRequest.of(List.of("/bin/sleep", "0.3")));
            assertThat(result.usage().cpuWaitMicros()).isNotNull();
            assertThat(result.loadFreeMillis()).isGreaterThanOrEqualTo(300).isLessThanOrEqualTo(result.wallMillis());
        }
    }

    @Test
    void withoutARunQueueFigureTheTimeIsTheWallTime() {
        LaunchResult unknown = new LaunchResult(null, 0, null, null, false, false, Usage.UNAVAILABLE, 42_500, null, null);
        assertThat(unknown.loadFreeMillis()).isEqualTo(42);
        Usage waited = new Usage(1L, 1L, 1L, 0L, 0L, 0L, 0L, null, 30_000L);
        assertThat(new LaunchResult(null, 0, null, null, false, false, waited, 42_500, null, null).loadFreeMillis()).isEqualTo(12);
        Usage tooMuch = new Usage(1L, 1L, 1L, 0L, 0L, 0L, 0L, null, 99_000L);
        assertThat(new LaunchResult(null, 0, null, null, false, false, tooMuch, 42_500, null, null).loadFreeMillis()).isZero();
    }

    @Test
    void onlyWaitingBeyondWhatTheTreeItselfRanIsOutsideLoad() {
        // Waited 2.5 s; besides the main thread (0.4 s on a CPU) the tree ran 3.6 s: all of the waiting may be its own.
        assertThat(Usage.outsideWait(2_500_000L, 400_000L, 3_900_000L, 100_000L)).isZero();
        // A single process: every microsecond of waiting was someone else's.
        assertThat(Usage.outsideWait(2_500_000L, 500_000L, 450_000L, 50_000L)).isEqualTo(2_500_000L);
        // A worker that ran 1 s beside a main thread that waited 1.5 s: at least 0.5 s of it was other processes.
        assertThat(Usage.outsideWait(1_500_000L, 200_000L, 1_100_000L, 100_000L)).isEqualTo(500_000L);
        assertThat(Usage.outsideWait(null, 1L, 1L, 1L)).isNull();
    }

    private static void assertWaitingIsTakenOut(Launcher launcher) throws Exception {
        String cpu = firstAllowedCpu();
        // A session of its own, as the run has: with autogroup scheduling a rival in the JVM's session weighs as one share of
        // the JVM's group, and other load on the machine then left the run more than half of the CPU.
        Process rival = new ProcessBuilder("setsid", "taskset", "-c", cpu, "sh", "-c", "while :; do :; done").start();
        try {
            LaunchResult result = launcher.launch(LaunchRequest.of(List.of("taskset", "-c", cpu, Fixtures.command("burn_cpu"), "150")));
            assertThat(result.exitedZero()).as(result.outcome()).isTrue();
            long cpuMillis = (result.usage().userMicros() + result.usage().systemMicros()) / 1000;
            long waitedMillis = result.usage().cpuWaitMicros() / 1000;
            // An equal share of one CPU: the run waits about as long as it computes, never much less.
            assertThat(waitedMillis).as("waited %d ms of %d ms wall, %d ms on the CPU", waitedMillis, result.wallMillis(), cpuMillis)
                    .isGreaterThan(cpuMillis / 2);
            assertThat(result.loadFreeMillis()).isLessThan(result.wallMillis() - cpuMillis / 2)
                    .isGreaterThanOrEqualTo(cpuMillis - 5);
        } finally {
            rival.destroyForcibly();
            rival.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** The first CPU this process may run on (a container's cpuset may not start at 0). */
    private static String firstAllowedCpu() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("Cpus_allowed_list:")) {
                return line.substring(line.indexOf(':') + 1).trim().split("[-,]")[0];
            }
        }
        return "0";
    }
}
