package dev.patchgrade.core.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.count.InstructionCount;
import dev.patchgrade.core.grade.GoalSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the counted run cost is shown beside the native runs, and a count that costs the build more than
 * ten native runs (and more than a few seconds) says so once, naming the switch that turns it off.
 */
class CountedRunCostTest {
    private static EnvelopeRun took(long wallMillis) {
        return new EnvelopeRun(0, null, false, false, 900L, 1500L, 300L, wallMillis, 120L, 0L, null, 8L, "a", "out", "err");
    }

    private static InstructionCount counted(long wallMillis) {
        return InstructionCount.of(1000, "valgrind", "a").timed(wallMillis);
    }

    @Test
    void theCountedRunsTimeIsShownBesideEachNativeRun() {
        assertThat(EnvelopeGoal.countedTime(counted(79_800), List.of(took(2_950), took(3_010))))
                .isEqualTo("wall time: counted run (valgrind) 79.800 s; native runs 2.950 s, 3.010 s, 26.5x the slowest");
        assertThat(EnvelopeGoal.countedTime(counted(400), List.of(took(0)))).isEqualTo("wall time: counted run (valgrind) 0.400 s; native run 0.000 s");
        assertThat(EnvelopeGoal.countedTime(InstructionCount.of(5, "perf"), List.of(took(3)))).as("not timed").isNull();
        assertThat(EnvelopeGoal.countedTime(null, List.of(took(3)))).isNull();
    }

    @Test
    void aCountOfMoreThanTenNativeRunsAndSecondsIsCostly() {
        assertThat(EnvelopeGoal.costly(counted(79_800), List.of(took(3_000)))).isTrue();
        assertThat(EnvelopeGoal.costly(counted(29_000), List.of(took(3_000)))).as("under 10x").isFalse();
        assertThat(EnvelopeGoal.costly(counted(900), List.of(took(20)))).as("45x of a 20 ms program costs nobody anything").isFalse();
        assertThat(EnvelopeGoal.costly(counted(5_800), List.of(took(148)))).as("nor 39x of a 0.15 s one on a loaded machine").isFalse();
        assertThat(EnvelopeGoal.costly(counted(80_000), List.of(took(3_000), took(9_000)))).as("against the slowest").isFalse();
        assertThat(EnvelopeGoal.costly(null, List.of(took(3_000)))).isFalse();
    }

    @Test
    void theWarningNamesTheSwitchForRecordingAndForGrading() {
        GoalSettings settings = new GoalSettings("envelope", "e", Path.of("reports"), Path.of("out"), Path.of("."), Map.of());
        String grading = EnvelopeGoal.costWarning(settings, counted(79_800), List.of(took(3_000)), false);
        assertThat(grading).isEqualTo("the instruction count (valgrind) took 79.8 s, 26.6x the slowest native run (3.000 s): most of this grade's "
                + "time. Hardware counters (instructionCounter=perf, where the kernel has them) cost nothing; else re-record the envelope with "
                + "instructionCounter=none to drop max_instructions, and with it the counted run");
        assertThat(EnvelopeGoal.costWarning(settings, counted(79_800), List.of(took(3_000)), true))
                .contains("most of this recording's time").endsWith("set instructionCounter=none to record no max_instructions and grade without "
                        + "the counted run");
    }
}
