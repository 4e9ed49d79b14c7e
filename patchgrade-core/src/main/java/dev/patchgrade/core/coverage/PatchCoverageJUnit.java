package dev.patchgrade.core.coverage;

import dev.patchgrade.core.cases.CasesFile;
import dev.patchgrade.core.report.CaseOutcome;
import java.util.function.Function;

/**
 * What the JUnit XML says of a changed file: a failure where its share of changed executable lines that ran is
 * below {@code minimumPercent}, skipped where gcov does not know it; the body has each changed line and what ran it.
 */
record PatchCoverageJUnit(double minimumPercent) implements Function<FileCoverage, CaseOutcome> {
    @Override
    public CaseOutcome apply(FileCoverage file) {
        if (!file.known()) {
            String message = "not measured: gcov knows no line of it in the coverage build (not compiled into it, or no code, declarations only)";
            return new CaseOutcome(file.path(), 0, CaseOutcome.Status.SKIPPED, null, message, message, detail(file), null);
        }
        if (file.below(minimumPercent)) {
            return CaseOutcome.failed(file.path(), 0, PatchCoverageResult.BELOW_MINIMUM, PatchCoverageText.failureMessage(file, minimumPercent),
                    detail(file), null, null);
        }
        return CaseOutcome.passed(file.path(), 0, (file.executable().isEmpty() ? "no changed line is executable" : PatchCoverageText.summary(file)
                + (file.notRun().isEmpty() ? "" : "; never run: " + LineRanges.format(file.notRun()))) + "\n" + detail(file), null);
    }

    /** The XML's one case where the patch changes no C or C++ line, so that the suite is not empty. */
    static CaseOutcome nothingToMeasure(PatchCoverageResult result) {
        String message = "git diff " + result.options().base() + " changes no line of a C or C++ file under " + result.patch().root()
                + ": nothing to measure";
        return new CaseOutcome("(no C/C++ changes)", 0, CaseOutcome.Status.SKIPPED, null, message, message, null, null);
    }

    /** Each changed executable line, run or not, and by which cases. */
    private static String detail(FileCoverage file) {
        StringBuilder text = new StringBuilder();
        text.append("changed lines: ").append(LineRanges.format(file.changed())).append('\n');
        for (FileCoverage.LineRun line : file.executable()) {
            text.append("line ").append(line.line()).append(": ");
            if (!line.ran()) {
                text.append("never run\n");
                continue;
            }
            text.append("run ").append(line.count()).append(" time(s) by ").append(line.cases()).append(" case(s): ")
                    .append(String.join(", ", line.firstCases().stream().map(CasesFile::printable).toList()))
                    .append(line.cases() > line.firstCases().size() ? ", ..." : "").append('\n');
        }
        return text.toString();
    }
}
