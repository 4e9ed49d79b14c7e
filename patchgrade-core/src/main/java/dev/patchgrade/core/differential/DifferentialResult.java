package dev.patchgrade.core.differential;

import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.Tally;
import java.util.List;
import java.util.Map;

/**
 * What the cases of one differential execution came to.
 *
 * @param generated how many cases the generator printed, every shard's
 * @param counts how many cases each pattern classified, in pattern order; only the patterns seen
 * @param worst the most severe pattern seen ({@code pass_agree} where no case was graded)
 * @param failures the first {@link GoalResult#LINES_KEPT} differing cases, a line each
 */
record DifferentialResult(long generated, long graded, long failed, Map<DifferentialPattern, Long> counts, DifferentialPattern worst,
        List<String> failures) implements Tally.Result {
    DifferentialResult {
        failures = List.copyOf(failures);
    }

    @Override
    public GoalResult goalResult() {
        return new GoalResult(failures, failed, null, worst.wireName());
    }
}
