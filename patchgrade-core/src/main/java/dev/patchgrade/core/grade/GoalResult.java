package dev.patchgrade.core.grade;

import dev.patchgrade.core.PatchgradeException;
import java.util.List;

/**
 * How a goal execution ended, for the caller to turn into a build outcome.
 *
 * @param failures one line per graded item that broke an oracle, the first {@link #LINES_KEPT} of them (empty when all passed)
 * @param failureCount how many graded items broke an oracle in all
 * @param error the setup problem that stopped grading, or {@code null}
 * @param worst the worst reason or pattern seen ({@code pass_all_agree}, {@code accept}, ...)
 */
public record GoalResult(List<String> failures, long failureCount, PatchgradeException error, String worst) {
    /** The build's message lists this many failures; the reports list them all. */
    public static final int LINES_KEPT = 100;

    public GoalResult {
        failures = List.copyOf(failures);
    }

    public GoalResult(List<String> failures, PatchgradeException error, String worst) {
        this(failures, failures.size(), error, worst);
    }

    public static GoalResult error(PatchgradeException error) {
        return new GoalResult(List.of(), error, error.errorName());
    }

    public boolean failed() {
        return failureCount > 0;
    }
}
