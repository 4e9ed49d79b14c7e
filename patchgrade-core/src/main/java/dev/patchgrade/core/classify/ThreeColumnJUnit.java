package dev.patchgrade.core.classify;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.classify.ThreeColumnGoal.Options;
import dev.patchgrade.core.classify.ThreeColumnGrading.Row;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.report.CaseOutcome;
import dev.patchgrade.core.report.StderrTail;
import java.util.function.Function;

/** What the JUnit XML says of a three-column row: a failure's message has the three outputs where they part, its body all of them and why.
 *
 * @param log where a hint about the sandbox goes, once
 */
record ThreeColumnJUnit(Options options, GradeLog log) implements Function<Row, CaseOutcome> {
    @Override
    public CaseOutcome apply(Row row) {
        GoalSettings settings = options.settings();
        double seconds = (row.reference().wallMicros() + row.candidate().wallMicros()) / 1e6;
        String out = "reference stdout:\n" + row.reference().stdout().excerpt() + "\ncandidate stdout:\n" + row.candidate().stdout().excerpt();
        String err = "reference stderr:\n" + row.reference().stderr().excerpt() + "\ncandidate stderr:\n" + row.candidate().stderr().excerpt();
        if (!row.keeps(options.run().keepAll())) {
            return CaseOutcome.passed(row.testCase().id(), seconds, out, err);
        }
        if (row.pattern().passed()) {
            return CaseOutcome.passed(row.testCase().id(), seconds, out, err).keeping(row.files());
        }
        String details = row.pattern().wireName() + ": " + row.pattern().advice() + "\ncomparison: " + options.comparison()
                + "\nargs: " + row.testCase().args()
                + StderrTail.side("reference", row.reference().outcome(), row.reference().stderr().excerpt())
                + StderrTail.side("candidate", row.candidate().outcome(), row.candidate().stderr().excerpt())
                + ThreeColumnText.differingLine(row)
                + "\nreference (" + row.reference().outcome() + "):\n" + row.reference().stdout().excerpt()
                + "\ncandidate (" + row.candidate().outcome() + "):\n" + row.candidate().stdout().excerpt()
                + "\ngolden:\n" + row.testCase().golden()
                + "\nfull streams: " + row.reference().stdout().file() + ", " + row.candidate().stdout().file()
                + settings.facts().hintText(row.reference().stderr().excerpt() + "\n" + row.candidate().stderr().excerpt(), log, settings.suggestions())
                + "\n";
        return CaseOutcome.failed(row.testCase().id(), seconds, row.pattern().wireName(), ThreeColumnText.message(row), details, out, err)
                .keeping(row.files());
    }
}
