package dev.patchgrade.core.classify;

import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.Tally;
import java.util.List;
import java.util.Map;

/**
 * What the rows of one three-column execution came to.
 *
 * @param counts how many rows each pattern classified, in pattern order; only the patterns seen
 * @param worst the most severe pattern seen ({@code pass_all_agree} where no row was graded)
 * @param failures the first {@link GoalResult#LINES_KEPT} failing rows, a line each
 */
record ThreeColumnResult(long graded, long failed, Map<DriftPattern, Long> counts, DriftPattern worst, List<String> failures) implements Tally.Result {
    ThreeColumnResult {
        failures = List.copyOf(failures);
    }

    @Override
    public GoalResult goalResult() {
        return new GoalResult(failures, failed, null, worst.wireName());
    }
}
