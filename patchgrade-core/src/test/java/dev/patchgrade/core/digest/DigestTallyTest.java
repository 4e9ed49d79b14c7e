package dev.patchgrade.core.digest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.grade.GoalResult;
import org.junit.jupiter.api.Test;

class DigestTallyTest {
    @Test
    void theWorstIsTheMostSevereDriftOfAnyCaseWhateverOrderTheyFinishIn() {
        DigestTally tally = new DigestTally(null);
        tally.add(DigestRows.drifting("a", null, DriftField.STDERR_SHA256));
        tally.add(DigestRows.drifting("b", null, DriftField.TIME_BUCKET, DriftField.EXIT));
        tally.add(DigestRows.passing("c"));
        tally.add(DigestRows.drifting("d", null, DriftField.STDOUT_SHA256));
        DigestResult result = tally.result();
        assertThat(result.worst()).isEqualTo(DriftField.EXIT);
        assertThat(result.goalResult().worst()).isEqualTo("exit");
    }

    @Test
    void countsGradedDriftedAndSanitizerFindingsApart() {
        DigestTally tally = new DigestTally(TimeBasis.CPU);
        tally.add(DigestRows.passing("a"));
        tally.add(DigestRows.sanitizerFinding("b"));
        tally.add(DigestRows.drifting("c", null, DriftField.EXIT));
        tally.add(DigestRows.passing("d"));
        DigestResult result = tally.result();
        assertThat(result.graded()).isEqualTo(4);
        assertThat(result.failed()).isEqualTo(2);
        assertThat(result.findings()).isEqualTo(1);
        assertThat(result.worst()).isEqualTo(DriftField.SANITIZER);
        assertThat(result.timeBasis()).as("the head's fact, carried to every reporter").isEqualTo(TimeBasis.CPU);
        assertThat(result.failures()).containsExactly("b: sanitizer: gold -> candidate; AddressSanitizer: heap-buffer-overflow in lookup",
                "c: exit: gold -> candidate");
    }

    @Test
    void anExecutionWhereEveryCaseMatchedPassesWithNoFailureLines() {
        DigestTally tally = new DigestTally(null);
        tally.add(DigestRows.passing("a"));
        GoalResult result = tally.result().goalResult();
        assertThat(result.failed()).isFalse();
        assertThat(result.failures()).isEmpty();
        assertThat(result.worst()).isEqualTo("pass");
    }

    @Test
    void keepsTheFirstFailureLinesButCountsEveryDriftingCase() {
        DigestTally tally = new DigestTally(null);
        for (int i = 0; i < GoalResult.LINES_KEPT + 20; i++) {
            tally.add(DigestRows.drifting("case-" + i, null, DriftField.EXIT));
        }
        GoalResult result = tally.result().goalResult();
        assertThat(result.failureCount()).isEqualTo(GoalResult.LINES_KEPT + 20);
        assertThat(result.failures()).hasSize(GoalResult.LINES_KEPT).first().asString().startsWith("case-0: ");
    }
}
