package dev.patchgrade.core.digest;

import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.Tally;
import java.util.List;

/**
 * What the rows of one digest execution came to.
 *
 * @param graded how many cases were graded
 * @param failed how many of them drifted from the gold
 * @param findings how many drifted on a sanitizer report the gold does not have
 * @param worst the most severe drift of any case, {@code null} where every case matched
 * @param failures the first {@link GoalResult#LINES_KEPT} failing cases, a line each
 * @param timeBasis what the gold's times measure, {@code null} where time buckets are off
 */
record DigestResult(long graded, long failed, long findings, DriftField worst, List<String> failures, TimeBasis timeBasis) implements Tally.Result {
    DigestResult {
        failures = List.copyOf(failures);
    }

    /** The worst drift's name, {@code pass} where there is none. */
    String worstName() {
        return worst == null ? "pass" : worst.wireName();
    }

    @Override
    public GoalResult goalResult() {
        return new GoalResult(failures, failed, null, worstName());
    }
}
