package dev.patchgrade.core.classify;

import dev.patchgrade.core.cases.CasesFile;
import dev.patchgrade.core.classify.ThreeColumnGrading.Row;
import dev.patchgrade.core.grade.FailureLines;
import dev.patchgrade.core.grade.PatternCounts;
import dev.patchgrade.core.grade.Tally;

/** Counts a three-column execution's rows as they finish: graded, failing, each pattern's rows and the first failure lines. */
final class ThreeColumnTally implements Tally<Row, ThreeColumnResult> {
    private final PatternCounts<DriftPattern> counts = new PatternCounts<>(DriftPattern.class);
    private final FailureLines failures = new FailureLines();
    private long graded;

    @Override
    public void add(Row row) {
        graded++;
        counts.add(row.pattern());
        if (!row.pattern().passed()) {
            failures.add(() -> CasesFile.printable(row.testCase().id()) + ": " + row.pattern().wireName() + " (" + ThreeColumnText.message(row) + ")");
        }
    }

    @Override
    public ThreeColumnResult result() {
        return new ThreeColumnResult(graded, failures.count(), counts.snapshot(), counts.worst(DriftPattern.PASS_ALL_AGREE), failures.kept());
    }
}
