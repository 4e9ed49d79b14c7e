package dev.patchgrade.core.grade;

import dev.patchgrade.core.PatchgradeException;
import java.util.List;

/**
 * How a goal execution ended, for the caller to turn into a build outcome.
 *
 * @param failures one line per graded item that broke an oracle (empty when all passed)
 * @param error the setup problem that stopped grading, or {@code null}
 * @param worst the worst reason or pattern seen ({@code pass_all_agree}, {@code accept}, ...)
 */
public record GoalResult(List<String> failures, PatchgradeException error, String worst) {

    public GoalResult {
        failures = List.copyOf(failures);
    }

    public static GoalResult error(PatchgradeException error) {
        return new GoalResult(List.of(), error, error.errorName());
    }

    public boolean failed() {
        return !failures.isEmpty();
    }
}
