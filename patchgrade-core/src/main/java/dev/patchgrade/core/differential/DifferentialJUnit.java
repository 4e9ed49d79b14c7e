package dev.patchgrade.core.differential;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.differential.DifferentialGoal.Options;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.report.CaseOutcome;
import dev.patchgrade.core.report.StderrTail;
import java.nio.file.Path;
import java.util.function.Function;

/** What the JUnit XML says of a differential case: a failure leads with the smallest input that still differs, and says how to reproduce it.
 *
 * @param log where a hint about the sandbox goes, once
 */
record DifferentialJUnit(Options options, Seed seed, GradeLog log) implements Function<DifferentialRow, CaseOutcome> {
    @Override
    public CaseOutcome apply(DifferentialRow row) {
        GoalSettings settings = options.settings();
        double seconds = (row.reference().wallMicros() + row.candidate().wallMicros()) / 1e6;
        LaunchResult reference = row.shownReference();
        LaunchResult candidate = row.shownCandidate();
        String out = "reference stdout:\n" + reference.stdout().excerpt() + "\ncandidate stdout:\n" + candidate.stdout().excerpt();
        String err = "reference stderr:\n" + reference.stderr().excerpt() + "\ncandidate stderr:\n" + candidate.stderr().excerpt();
        if (!row.keeps(options.run().keepAll())) {
            // Its output was let go as soon as it was compared.
            return CaseOutcome.passed(row.testCase().id(), seconds, out, err);
        }
        if (row.pattern().passed()) {
            return CaseOutcome.passed(row.testCase().id(), seconds, out, err).keeping(row.files());
        }
        StringBuilder details = new StringBuilder();
        details.append(row.pattern().wireName()).append(": ").append(row.pattern().advice())
                .append("\ncomparison: ").append(options.comparison())
                .append("\nseed: ").append(seed).append(" (reproduce with ").append(settings.suggestions().once(Setting.SEED.is(seed.toString()))).append(')');
        DifferentialRow.Shrunk shrunk = row.shrunk();
        if (shrunk != null) {
            details.append(shrunk.smaller(row.testCase()) ? "\nsmallest input that still differs: " : "\nno smaller input differs: ")
                    .append(DifferentialText.input(shrunk.smallest()))
                    .append(" (").append(shrunk.runPairs()).append(" run pair(s) of shrinking").append(shrunk.budgetSpent()
                            ? ", stopped at the budget of " + options.shrinkBudget() : "").append(')');
        }
        details.append(StderrTail.side("reference", reference.outcome(), reference.stderr().excerpt()))
                .append(StderrTail.side("candidate", candidate.outcome(), candidate.stderr().excerpt()));
        String line = DifferentialText.firstDifferingLine(reference.stdout().excerpt(), candidate.stdout().excerpt());
        details.append(line == null ? "" : "\n" + line)
                .append("\nreference (").append(reference.outcome()).append("):\n").append(reference.stdout().excerpt())
                .append("\ncandidate (").append(candidate.outcome()).append("):\n").append(candidate.stdout().excerpt());
        if (shrunk != null && shrunk.smaller(row.testCase())) {
            details.append("\noriginal input: ").append(DifferentialText.input(row.testCase()))
                    .append("\nreference on it (").append(row.reference().outcome()).append("):\n").append(row.reference().stdout().excerpt())
                    .append("\ncandidate on it (").append(row.candidate().outcome()).append("):\n").append(row.candidate().stdout().excerpt());
        }
        details.append("\nfull streams: ").append(String.join(", ", row.files().stream().filter(f -> f.toString().endsWith(".stdout"))
                .map(Path::toString).toList()))
                .append(settings.facts().hintText(reference.stderr().excerpt() + "\n" + candidate.stderr().excerpt(), log, settings.suggestions()))
                .append('\n');
        return CaseOutcome.failed(row.testCase().id(), seconds, row.pattern().wireName(), DifferentialText.message(row), details.toString(), out, err)
                .keeping(row.files());
    }
}
