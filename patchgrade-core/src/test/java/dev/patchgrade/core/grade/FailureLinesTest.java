package dev.patchgrade.core.grade;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class FailureLinesTest {
    @Test
    void keepsTheFirstLinesTheBuildMessageListsAndCountsEveryFailure() {
        FailureLines lines = new FailureLines();
        for (int i = 0; i < GoalResult.LINES_KEPT + 5; i++) {
            int n = i;
            lines.add(() -> "case-" + n);
        }
        assertThat(lines.count()).isEqualTo(GoalResult.LINES_KEPT + 5);
        assertThat(lines.kept()).hasSize(GoalResult.LINES_KEPT).startsWith("case-0", "case-1").endsWith("case-" + (GoalResult.LINES_KEPT - 1));
    }

    @Test
    void aFailureBeyondTheKeptLinesIsCountedWithoutMakingItsLine() {
        FailureLines lines = new FailureLines();
        AtomicInteger made = new AtomicInteger();
        for (int i = 0; i < GoalResult.LINES_KEPT * 3; i++) {
            lines.add(() -> "line " + made.incrementAndGet());
        }
        assertThat(made).hasValue(GoalResult.LINES_KEPT);
        assertThat(lines.count()).isEqualTo(GoalResult.LINES_KEPT * 3L);
    }
}
