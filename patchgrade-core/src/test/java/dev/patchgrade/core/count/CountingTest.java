package dev.patchgrade.core.count;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.patchgrade.core.Fixtures;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.launch.LaunchRequest;
import dev.patchgrade.core.launch.Launcher;
import dev.patchgrade.core.launch.Launchers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real counts of real programs through the real launcher: Valgrind wherever it is installed (.ci/run
 * installs it), hardware counters only where the kernel has them (not in a VM without a virtual PMU).
 */
class CountingTest {
    private static Launcher launcher;

    @TempDir
    Path dir;

    @BeforeAll
    static void open() {
        launcher = Launchers.open(GradeLog.SILENT);
    }

    @AfterAll
    static void close() {
        launcher.close();
    }

    private static InstructionCounter valgrind() {
        var found = ValgrindCounter.locate(System.getenv("PATH"));
        assumeTrue(found.isPresent(), "valgrind is not installed");
        return new ValgrindCounter(found.get());
    }

    private static long count(InstructionCounter counter, String... command) {
        InstructionCount count = counter.count(launcher, LaunchRequest.of(List.of(command)));
        assertThat(count.problem()).isNull();
        assertThat(count.method()).isEqualTo(counter.method());
        return count.value();
    }

    @Test
    void valgrindCountsTheWholeTreeAndTwiceTheWorkIsTwiceTheCount() {
        InstructionCounter counter = valgrind();
        long once = count(counter, "/bin/true");
        assertThat(once).isBetween(10_000L, 50_000_000L);
        long tree = count(counter, "/bin/sh", "-c", "/bin/true; /bin/true");
        assertThat(tree).as("the shell and both children are summed").isGreaterThan(2 * once);
        long burn1 = count(counter, Fixtures.command("burn_cpu"), "2");
        long burn2 = count(counter, Fixtures.command("burn_cpu"), "4");
        assertThat((double) burn2 / burn1).isBetween(1.9, 2.1);
        assertThat(count(counter, Fixtures.command("burn_cpu"), "2")).as("deterministic").isEqualTo(burn1);
    }

    @Test
    void aCommandThatFailsUnderValgrindGivesNoCount() {
        InstructionCount count = valgrind().count(launcher, LaunchRequest.of(List.of(Fixtures.command("crash"), "segv")));
        assertThat(count.measured()).isFalse();
        assertThat(count.problem()).contains("ended with");
    }

    @Test
    void iRefsLinesOfEveryProcessAreSummedAndOtherLinesIgnored() throws Exception {
        Path log = Files.writeString(dir.resolve("vg.stderr"), """
                ==12== Cachegrind, a cache and branch-prediction profiler
                program output that mentions I refs: 5
                ==13== I   refs:      128,300
                ==12==
                ==12== I   refs:      1,226,217
                """);
        assertThat(ValgrindCounter.read(log).total()).isEqualTo(1_354_517L);
        assertThat(ValgrindCounter.read(log).unreported()).isEmpty();
        assertThat(ValgrindCounter.read(Files.writeString(dir.resolve("none"), "no summary\n")).total()).isNull();
    }

    @Test
    void anImageThatStartedAndPrintedNoTotalIsNamedAndFailsTheCount() throws Exception {
        // 20 exec'd an image (its Command line) and was killed before Valgrind could print its total.
        Path log = Files.writeString(dir.resolve("vg.stderr"), """
                ==12== Command: /bin/sh -c ./worker & sleep 1; kill -9 $!
                ==20== Command: ./worker
                ==12== I   refs:      1,226,217
                """);
        ValgrindCounter.Report report = ValgrindCounter.read(log);
        assertThat(report.total()).isEqualTo(1_226_217L);
        assertThat(report.unreported()).containsExactly("20");
    }

    @Test
    void forkChildrenWithoutCommandLinesAndRepeatedExecsOfOneProcessAreFine() throws Exception {
        // 13 is a fork child (no Command line of its own); 12 exec'd twice and reported once, at its end.
        Path log = Files.writeString(dir.resolve("vg.stderr"), """
                ==12== Command: /bin/sh -c exec /bin/true
                ==13== I   refs:      128,300
                ==12== Command: /bin/true
                ==12== I   refs:      110,593
                """);
        ValgrindCounter.Report report = ValgrindCounter.read(log);
        assertThat(report.unreported()).isEmpty();
        assertThat(report.total()).isEqualTo(238_893L);
    }

    @Test
    void aCountingRunWithLeftoversOrAKilledImageGivesNoCount() {
        InstructionCounter counter = valgrind();
        InstructionCount leftover = counter.count(launcher, LaunchRequest.of(List.of("/bin/sh", "-c", "/bin/sleep 30 &")));
        assertThat(leftover.measured()).as("the sleep outlives the shell and is killed: Valgrind never counts it").isFalse();
        assertThat(leftover.problem()).contains("outlived it");
        InstructionCount killed = counter.count(launcher, LaunchRequest.of(List.of("/bin/sh", "-c",
                "/bin/sleep 30 & pid=$!; /bin/sleep 2; kill -9 $pid; wait")));
        assertThat(killed.measured()).as("the killed sleep printed a Command line and no total").isFalse();
        assertThat(killed.problem()).contains("printed no \"I refs\" total");
    }

    @Test
    void theCountingRunFindsTheStoppedShellAndLetsItGoWhateverTheKernelSays() {
        // Here (a VM) the attach fails with the kernel's reason; where counters exist, it counts. Either way the
        // stopped shell was found by its marker and continued: the run ends, with no "ended before" problem.
        InstructionCount count = new PerfCounter().count(launcher, LaunchRequest.of(List.of("/bin/true")).withTimeout(java.time.Duration.ofSeconds(60)));
        assertThat(count.method()).isEqualTo("perf");
        if (PerfCounter.probe().available()) {
            assertThat(count.value()).isPositive();
        } else {
            assertThat(count.measured()).isFalse();
            assertThat(count.problem()).isEqualTo(PerfCounter.probe().problem());
        }
    }

    @Test
    void hardwareCountersCountWhereTheKernelHasThem() {
        PerfCounter.Probe probe = PerfCounter.probe();
        assumeTrue(probe.available(), () -> "no hardware counters here: " + probe.problem());
        PerfCounter counter = new PerfCounter();
        long burn1 = count(counter, Fixtures.command("burn_cpu"), "20");
        long burn2 = count(counter, Fixtures.command("burn_cpu"), "40");
        assertThat((double) burn2 / burn1).isBetween(1.8, 2.2);
        long once = count(counter, "/bin/true");
        assertThat(count(counter, "/bin/sh", "-c", "/bin/true; /bin/true")).as("children are inherited").isGreaterThan(once);
    }
}
