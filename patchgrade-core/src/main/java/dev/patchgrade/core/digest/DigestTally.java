package dev.patchgrade.core.digest;

import dev.patchgrade.core.cases.CasesFile;
import dev.patchgrade.core.grade.FailureLines;
import dev.patchgrade.core.grade.Tally;

/** Counts a digest execution's rows as they finish: graded, drifted, sanitizer findings, the worst drift and the first failure lines. */
final class DigestTally implements Tally<DigestRow, DigestResult> {
    private final TimeBasis timeBasis;
    private final FailureLines failures = new FailureLines();
    private long graded;
    private long findings;
    private DriftField worst;

    /** @param timeBasis what the gold's times measure, {@code null} where time buckets are off */
    DigestTally(TimeBasis timeBasis) {
        this.timeBasis = timeBasis;
    }

    @Override
    public void add(DigestRow row) {
        graded++;
        if (!row.failed()) {
            return;
        }
        worst = DriftField.worse(worst, row.worst());
        if (row.sanitizerFinding()) {
            findings++;
        }
        failures.add(() -> CasesFile.printable(row.testCase().id()) + ": " + DigestText.message(row));
    }

    @Override
    public DigestResult result() {
        return new DigestResult(graded, failures.count(), findings, worst, failures.kept(), timeBasis);
    }
}
