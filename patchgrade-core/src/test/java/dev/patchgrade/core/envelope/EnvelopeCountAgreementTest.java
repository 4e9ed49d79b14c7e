package dev.patchgrade.core.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.count.InstructionCount;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The counted run is a run of its own: its count stands only when it printed what the graded runs
 * printed (where they agree, else the expected stdout), so a program that sees the counter and skips
 * its work cannot pass with a small count.
 */
class EnvelopeCountAgreementTest {
    private static final String GOOD = "a".repeat(64);
    private static final String OTHER = "b".repeat(64);

    private static EnvelopeRun printing(String sha256) {
        return new EnvelopeRun(0, null, false, false, 900L, 1500L, 300L, 42, 120L, 0L, null, 8L, sha256, "out", "err");
    }

    @Test
    void aCountWhoseRunPrintedWhatTheGradedRunsPrintedStands() {
        InstructionCount count = InstructionCount.of(1000, "valgrind", GOOD);
        assertThat(EnvelopeGoal.agreeing(count, List.of(printing(GOOD), printing(GOOD)), null)).isEqualTo(count);
        assertThat(EnvelopeGoal.agreeing(count, List.of(printing(GOOD)), GOOD)).isEqualTo(count);
    }

    @Test
    void aCountWhoseRunPrintedSomethingElseIsNoCount() {
        InstructionCount other = EnvelopeGoal.agreeing(InstructionCount.of(1000, "valgrind", OTHER), List.of(printing(GOOD)), null);
        assertThat(other.measured()).isFalse();
        assertThat(other.diverged()).isTrue();
        assertThat(other.method()).isEqualTo("valgrind");
        assertThat(other.problem()).contains("printed something else than the graded runs").contains("bbbbbbbbbbbb instead of aaaaaaaaaaaa")
                .contains("behaves differently under the counter");
        InstructionCount unknown = EnvelopeGoal.agreeing(InstructionCount.of(1000, "perf"), List.of(printing(GOOD)), null);
        assertThat(unknown.measured()).as("a run whose stdout is unknown proves nothing").isFalse();
        assertThat(unknown.diverged()).as("nor does it show other work").isFalse();
    }

    @Test
    void gradedRunsThatDisagreeAreReplacedByTheExpectedStdoutWhereThereIsOne() {
        List<EnvelopeRun> disagreeing = List.of(printing(GOOD), printing(OTHER));
        InstructionCount count = InstructionCount.of(1000, "valgrind", OTHER);
        InstructionCount held = EnvelopeGoal.agreeing(count, disagreeing, GOOD);
        assertThat(held.measured()).isFalse();
        assertThat(held.problem()).contains("printed something else than the expected stdout");
        assertThat(EnvelopeGoal.agreeing(count, disagreeing, null)).as("nothing to hold it to").isEqualTo(count);
        InstructionCount failed = InstructionCount.failed("valgrind", "it crashed");
        assertThat(EnvelopeGoal.agreeing(failed, List.of(printing(GOOD)), null)).isEqualTo(failed);
    }

    @Test
    void aCountOfOtherWorkRejectsForInstructionsNamingWhy() {
        Envelope envelope = new Envelope(Path.of("envelope.json"), List.of("./a"), 2.5, Map.of(Ceiling.INSTRUCTIONS, 5000L), null, null, null, "valgrind");
        InstructionCount other = EnvelopeGoal.agreeing(InstructionCount.of(10, "valgrind", OTHER), List.of(printing(GOOD)), null);
        EnvelopeVerdict verdict = EnvelopeGrader.grade(envelope, List.of(printing(GOOD)), null, List.of(), other);
        assertThat(verdict.reasons()).containsExactly("instructions");
        assertThat(verdict.graded()).as("no count of the graded work to show").doesNotContainKey(Ceiling.INSTRUCTIONS);
        assertThat(EnvelopeText.failureMessage(verdict, envelope)).startsWith("instructions: the counted run (under valgrind) printed "
                + "something else than the graded runs (stdout sha256 bbbbbbbbbbbb instead of aaaaaaaaaaaa)");
    }

    @Test
    void aCeilingIsRecordedOnlyFromACountWhoseRunPrintedWhatEveryNativeRunPrinted() {
        InstructionCount count = InstructionCount.of(1000, "valgrind", GOOD);
        assertThat(EnvelopeGoal.recordable(count, List.of(printing(GOOD), printing(GOOD)))).isEqualTo(count);
        InstructionCount other = EnvelopeGoal.agreeing(InstructionCount.of(1000, "valgrind", OTHER), List.of(printing(GOOD)), null);
        assertThat(EnvelopeGoal.recordable(other, List.of(printing(GOOD)))).isEqualTo(other);
        // Timings in the output: every run prints another line, and the counted run yet another.
        InstructionCount timed = EnvelopeGoal.recordable(EnvelopeGoal.agreeing(InstructionCount.of(1000, "valgrind", "c".repeat(64)),
                List.of(printing(GOOD), printing(OTHER)), null), List.of(printing(GOOD), printing(OTHER)));
        assertThat(timed.measured()).isFalse();
        assertThat(timed.diverged()).isTrue();
        assertThat(timed.problem()).contains("the native runs printed different output from one another (stdout sha256 aaaaaaaaaaaa, "
                + "bbbbbbbbbbbb) and the counted run (under valgrind) cccccccccccc");
        assertThat(EnvelopeGoal.recordable(InstructionCount.of(1000, "valgrind", GOOD), List.of(printing(GOOD), printing(OTHER))).diverged())
                .as("printing what one of them printed does not show it did the others' work").isTrue();
    }

    @Test
    void aFailedCountIsAnErrorUnlessARunAlreadyRejectsForItsStdout() {
        Envelope envelope = new Envelope(Path.of("envelope.json"), List.of("./a"), 2.5, Map.of(Ceiling.INSTRUCTIONS, 5000L), null, null, null, "valgrind");
        InstructionCount failed = InstructionCount.failed("valgrind", "the counted run printed something else than the expected stdout");
        EnvelopeVerdict verdict = EnvelopeGrader.grade(envelope, List.of(printing(GOOD), printing(OTHER)), GOOD, List.of(), failed);
        assertThat(verdict.reasons()).containsExactly("stdout");
        assertThatThrownBy(() -> EnvelopeGrader.grade(envelope, List.of(printing(GOOD)), GOOD, List.of(), failed))
                .isInstanceOf(PatchgradeException.class).hasMessageContaining("printed something else");
    }
}
