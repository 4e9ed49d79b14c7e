package dev.patchgrade.core.differential;

import dev.patchgrade.core.cases.CasesFile;
import dev.patchgrade.core.grade.FailureLines;
import dev.patchgrade.core.grade.PatternCounts;
import dev.patchgrade.core.grade.Tally;

/** Counts a differential execution's cases as they finish: graded, differing, each pattern's cases and the first failure lines. */
final class DifferentialTally implements Tally<DifferentialRow, DifferentialResult> {
    private final long generated;
    private final PatternCounts<DifferentialPattern> counts = new PatternCounts<>(DifferentialPattern.class);
    private final FailureLines failures = new FailureLines();
    private long graded;

    /** @param generated how many cases the generator printed, every shard's */
    DifferentialTally(long generated) {
        this.generated = generated;
    }

    @Override
    public void add(DifferentialRow row) {
        graded++;
        counts.add(row.pattern());
        if (!row.pattern().passed()) {
            failures.add(() -> CasesFile.printable(row.testCase().id()) + ": " + row.pattern().wireName() + " (" + DifferentialText.message(row) + ")");
        }
    }

    @Override
    public DifferentialResult result() {
        return new DifferentialResult(generated, graded, failures.count(), counts.snapshot(), counts.worst(DifferentialPattern.PASS_AGREE),
                failures.kept());
    }
}
