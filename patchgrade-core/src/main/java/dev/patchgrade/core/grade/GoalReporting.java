package dev.patchgrade.core.grade;

import dev.patchgrade.core.report.CaseOutcome;
import java.util.List;
import java.util.function.Function;

/**
 * A goal's tally and views of one execution, which {@link CaseGrading} feeds row by row.
 *
 * @param tally what the rows come to, the result every reporter reads at the end
 * @param junit what the JUnit XML says of a row
 * @param json what the JSON report says of a row and of the whole execution
 * @param own the goal's own reporters (its files, then the console), fed after the XML and the JSON
 */
public record GoalReporting<R, T extends Tally.Result>(Tally<R, T> tally, Function<R, CaseOutcome> junit, JsonView<R, T> json,
        List<CaseReporter<R, T>> own) {
    public GoalReporting {
        own = List.copyOf(own);
    }
}
