package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.Fixtures;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A candidate against who waits for its run and who reaps what the run leaves. The zygote, outside the runs' PID
 * namespace, is the target's parent: the target can make it its tracer (PTRACE_TRACEME) and give it children of its
 * own (clone with CLONE_PARENT). PID 1 reaps the orphans. Whatever the run leaves, its cost is this run's and never
 * the next run's, and the run's outcome is the one it had.
 */
class RunEndReapingTest extends SandboxedRunTest {
    private static final String HONEST_NEXT_RUN = "pid 2 children 3 4 5 6\n";

    @BeforeEach
    void needsTheSandbox() {
        dev.patchgrade.core.SandboxAvailability.assumeAvailable();
    }

    /**
     * A sibling (the zygote's child) that is alive when the target ends has a child that burnt 300 ms and touched
     * 100 MB; the sibling never waits for it. The end of the run kills both, and the child reaches PID 1 only once
     * the sibling has exited: after PID 1 answered for the run. Its rusage then went into the next run, an honest one
     * of 2 ms and 1.3 MB, which read as 300 ms and 168 MB (8 runs of 8), its first pid sometimes 3.
     */
    @Test
    void theCostOfAChildLeftBehindASiblingIsNeverChargedToTheNextRun() {
        String candidate = Fixtures.command("reaper_attacker");
        try (Launcher launcher = open()) {
            for (int round = 0; round < 3; round++) {
                LaunchResult attack = runLong(launcher, candidate, "sibling-grandchild", "300", "100", "64");
                assertThat(attack.stdout().excerpt()).isEqualTo("answer\n");
                assertThat(attack.usage().userMicros() + attack.usage().systemMicros()).as("the child's 300 ms are this run's: " + attack.usage())
                        .isGreaterThanOrEqualTo(250_000L);
                LaunchResult next = run(launcher, candidate, "pids", "4");
                assertThat(next.stdout().excerpt()).as("round %d", round).isEqualTo(HONEST_NEXT_RUN);
                assertThat(next.usage().maxRssKb()).as("round %d, the next run's own peak: %s", round, next.usage()).isLessThan(20_000L);
                assertThat(next.usage().userMicros() + next.usage().systemMicros()).as("round %d, the next run's own CPU: %s", round, next.usage())
                        .isLessThan(100_000L);
            }
        }
    }

    /**
     * The zygote's wait4 reports a stopped tracee (without WUNTRACED), and the stop was taken for the end: a traced
     * target that dereferences NULL read as "exit 11", its crash gone from the grade (signal_SIGSEGV), and the
     * target was then killed and counted as left over.
     */
    @Test
    void aTargetThatMakesItsParentItsTracerAndCrashesIsReportedAsKilledBySigsegv() {
        try (Launcher launcher = open()) {
            LaunchResult crash = run(launcher, Fixtures.command("reaper_attacker"), "traceme-segv");
            assertThat(crash.stdout().excerpt()).isEqualTo("traced\n");
            assertThat(crash.outcome()).isEqualTo("killed by SIGSEGV");
        }
    }

    /** A signal the traced target handles stopped it for its tracer, and the stop read as "exit 10" (SIGUSR1's number). */
    @Test
    void aTracedTargetThatHandlesASignalRunsOnToItsOwnExit() {
        try (Launcher launcher = open()) {
            LaunchResult handled = run(launcher, Fixtures.command("reaper_attacker"), "traceme-stop", "10");
            assertThat(handled.stdout().excerpt()).endsWith("traced\nresumed\n");
            assertThat(handled.outcome()).isEqualTo("exit 0");
            assertThat(handled.leftovers()).isZero();
        }
    }

    /** A target that stops for its tracer again and again, as fast as it can, still times out at its deadline. */
    @Test
    void aTargetStoppingForItsTracerWithoutEndStillTimesOut() {
        try (Launcher launcher = open()) {
            LaunchResult storm = launcher.launch(LaunchRequest.of(List.of(Fixtures.command("reaper_attacker"), "traceme-storm"))
                    .withWorkingDirectory(dir).withTimeout(Duration.ofSeconds(1)));
            assertThat(storm.stdout().excerpt()).isEqualTo("storming\n");
            assertThat(storm.timedOut()).as(storm.outcome()).isTrue();
        }
    }

    /**
     * A traced exec stops with SIGTRAP for the tracer, which an untraced exec never sends: the program a traced
     * target execs runs as it would untraced (a stop taken for the end read as "exit 5"; a tracer that handed the
     * SIGTRAP back would kill it).
     */
    @Test
    void aTracedTargetThatExecsRunsTheProgramItExecs() {
        try (Launcher launcher = open()) {
            LaunchResult exec = run(launcher, Fixtures.command("reaper_attacker"), "traceme-exec", "/bin/sh", "-c", "echo ran; exit 3");
            assertThat(exec.stdout().excerpt()).endsWith("traced\nran\n");
            assertThat(exec.outcome()).isEqualTo("exit 3");
        }
    }

    /**
     * A sibling that made the zygote its tracer and stopped was reaped twice, once at its stop with the live process's
     * usage and again at its end: a 300 ms sibling read as 600 ms.
     */
    @Test
    void aTracedSiblingIsCountedOnce() {
        try (Launcher launcher = open()) {
            LaunchResult traced = runLong(launcher, Fixtures.command("reaper_attacker"), "sibling-traceme", "300");
            assertThat(traced.stdout().excerpt()).endsWith("answer\n");
            long cpu = traced.usage().userMicros() + traced.usage().systemMicros();
            assertThat(cpu).as("300 ms burnt: " + traced.usage()).isBetween(250_000L, 450_000L);
        }
    }

    /**
     * Counted twice, the stopped sibling's faults (200 MB mapped and unmapped 1 MB at a time) explained away those of
     * a 100 MB child the kernel reaped: the run read as 1.5 MB with no escape told, 3 runs of 3.
     */
    @Test
    void aStoppedTracedSiblingDoesNotExplainAwayTheMemoryOfAChildTheKernelReaped() {
        try (Launcher launcher = open()) {
            org.junit.jupiter.api.Assumptions.assumeTrue(launcher.method().contains("cgroup_"), "needs a memory cgroup: " + launcher.method());
            LaunchResult hidden = runLong(launcher, Fixtures.command("reaper_attacker"), "stopped-sibling-hides", "200", "100");
            assertThat(hidden.stdout().excerpt()).isEqualTo("answer\n");
            assertThat(hidden.usage().maxRssKb()).as("unknown (null) or the child's 100 MB, never small: " + hidden.usage())
                    .satisfiesAnyOf(rss -> assertThat(rss).isNull(), rss -> assertThat(rss).isGreaterThan(100_000L));
        }
    }

    /** 500 siblings of 2 ms each, all ended before the target: reaped into this run, none into the next. */
    @Test
    void manySiblingsAreChargedToTheirOwnRunOnly() {
        String candidate = Fixtures.command("reaper_attacker");
        try (Launcher launcher = open()) {
            LaunchResult siblings = runLong(launcher, candidate, "siblings", "500", "2");
            assertThat(siblings.stdout().excerpt()).isEqualTo("siblings 500\n");
            assertThat(siblings.usage().userMicros() + siblings.usage().systemMicros()).as(siblings.usage().toString()).isGreaterThanOrEqualTo(1_000_000L);
            assertThat(siblings.usage().processEscapedWait()).as("every sibling is waited for: " + siblings.usage()).isFalse();
            LaunchResult next = run(launcher, candidate, "pids", "4");
            assertThat(next.stdout().excerpt()).isEqualTo(HONEST_NEXT_RUN);
            assertThat(next.usage().userMicros() + next.usage().systemMicros()).as(next.usage().toString()).isLessThan(100_000L);
        }
    }

    /** A sibling still forking when the target ends: it and its 1,000 or more children are killed, and none is left to the next run. */
    @Test
    void aSiblingStillForkingWhenTheTargetEndsLeavesNothingToTheNextRun() {
        String candidate = Fixtures.command("reaper_attacker");
        try (Launcher launcher = open()) {
            LaunchResult flood = runLong(launcher, candidate, "fork-flood", "1000");
            assertThat(flood.stdout().excerpt()).isEqualTo("answer\n");
            assertThat(flood.outcome()).isEqualTo("exit 0");
            assertThat(flood.leftovers()).as("the sibling at least, killed at the end").isPositive();
            LaunchResult next = run(launcher, candidate, "pids", "4");
            assertThat(next.stdout().excerpt()).isEqualTo(HONEST_NEXT_RUN);
            assertThat(next.usage().userMicros() + next.usage().systemMicros()).as(next.usage().toString()).isLessThan(100_000L);
        }
    }

    /** A POSIX message queue is the IPC namespace's, which the zygote makes anew for every run. */
    @Test
    void aMessageQueueLeftByARunIsGoneForTheNext() {
        String candidate = Fixtures.command("reaper_attacker");
        try (Launcher launcher = open()) {
            assertThat(run(launcher, candidate, "mq-store", "golden-4242").stdout().excerpt()).isEqualTo("stored\n");
            assertThat(run(launcher, candidate, "mq-load").stdout().excerpt()).isEqualTo("mq-none errno=2\n");
        }
    }

    /**
     * At the timeout a target that blocks SIGTERM, and a sibling that ignores it and keeps up to 1,500 children
     * forking as they end, are all killed after the grace; the next run starts alone at pid 2.
     */
    @Test
    void aSiblingForkingChildrenThatIgnoreSigtermEndsAtTheTimeoutAndLeavesNothing() {
        String candidate = Fixtures.command("reaper_attacker");
        try (Launcher launcher = open()) {
            LaunchResult flood = launcher.launch(LaunchRequest.of(List.of(candidate, "term-proof-fork", "1500", "1")).withWorkingDirectory(dir)
                    .withTimeout(Duration.ofSeconds(2)));
            assertThat(flood.timedOut()).isTrue();
            assertThat(flood.stdout().excerpt()).isEqualTo("forking\n");
            LaunchResult next = run(launcher, candidate, "pids", "4");
            assertThat(next.stdout().excerpt()).isEqualTo(HONEST_NEXT_RUN);
            assertThat(next.usage().userMicros() + next.usage().systemMicros()).as(next.usage().toString()).isLessThan(100_000L);
        }
    }
}
