package dev.patchgrade.core.classify;

/**
 * The article's decision table: the pattern of the three comparisons under one equality rule.
 * A run that timed out or exited non-zero is classified by that before any output is compared.
 */
public final class Classifier {
    private Classifier() {}

    /** Whether each binary ended cleanly, and the three pairwise comparisons. */
    public record Evidence(boolean referenceTimedOut, boolean candidateTimedOut, boolean referenceClean, boolean candidateClean,
            boolean referenceEqualsCandidate, boolean candidateEqualsGolden, boolean referenceEqualsGolden) {}

    public static DriftPattern classify(Evidence e) {
        if (e.referenceTimedOut() || e.candidateTimedOut()) {
            return DriftPattern.TIMEOUT;
        }
        if (!e.referenceClean() || !e.candidateClean()) {
            return DriftPattern.NONZERO_EXIT;
        }
        return classify(e.referenceEqualsCandidate(), e.candidateEqualsGolden(), e.referenceEqualsGolden());
    }

    public static DriftPattern classify(boolean same, boolean candidateGolden, boolean referenceGolden) {
        if (same && candidateGolden) {
            return DriftPattern.PASS_ALL_AGREE;
        }
        if (same) {
            return DriftPattern.GOLDEN_ROT;
        }
        if (candidateGolden && !referenceGolden) {
            return DriftPattern.COUPLED_OR_STALE_GOLDEN;
        }
        if (referenceGolden) {
            return DriftPattern.CANDIDATE_REGRESSION;
        }
        return DriftPattern.THREE_WAY_SPLIT;
    }
}
