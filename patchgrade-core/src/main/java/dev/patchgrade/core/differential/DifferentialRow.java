package dev.patchgrade.core.differential;

import dev.patchgrade.core.cases.Case;
import dev.patchgrade.core.launch.LaunchResult;
import java.util.Objects;

/**
 * One graded case.
 *
 * @param shrunk the smallest input found that still differs, or {@code null} where the case did not differ or was not shrunk
 */
record DifferentialRow(Case testCase, LaunchResult reference, LaunchResult candidate, DifferentialPattern pattern, Shrunk shrunk) {
    /** The input the report leads with: the smallest where there is one. */
    Case shown() {
        return shrunk == null ? testCase : shrunk.smallest();
    }

    /**
     * A differing case cut down.
     *
     * @param smallest the smallest input on which the two still differ (the original where nothing could go)
     * @param reference the reference's run on it
     * @param candidate the candidate's run on it
     * @param runPairs the extra runs of both that shrinking took
     * @param budgetSpent it stopped at the budget, not at a 1-minimal input
     */
    record Shrunk(Case smallest, LaunchResult reference, LaunchResult candidate, int runPairs, boolean budgetSpent) {
        boolean smaller(Case original) {
            return !(smallest.args().equals(original.args()) && Objects.equals(smallest.stdin(), original.stdin()));
        }
    }
}
