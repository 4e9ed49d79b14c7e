package dev.patchgrade.core.classify;

import java.util.Locale;

/** The outcome of one three-column row, worst first: the worst in a batch names the run. */
public enum DriftPattern {
    REFERENCE_IDENTITY_DRIFT,
    THREE_WAY_SPLIT,
    GOLDEN_ROT,
    COUPLED_OR_STALE_GOLDEN,
    CANDIDATE_REGRESSION,
    TIMEOUT,
    NONZERO_EXIT,
    PASS_ALL_AGREE;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean passed() {
        return this == PASS_ALL_AGREE;
    }

    /** What a reviewer should do about a row with this pattern. */
    public String advice() {
        return switch (this) {
            case REFERENCE_IDENTITY_DRIFT -> "the reference (its executable or a file its command names) is not the frozen one; nothing can be graded";
            case THREE_WAY_SPLIT -> "all three differ: stop, do not pick a winner";
            case GOLDEN_ROT -> "reference and candidate agree against the golden: a person may refresh the golden after a reviewed spec change";
            case COUPLED_OR_STALE_GOLDEN -> "the golden moved with the candidate: reject the patch and restore the golden";
            case CANDIDATE_REGRESSION -> "reference matches the golden, the candidate does not: reject the patch";
            case TIMEOUT -> "a binary ran out of time";
            case NONZERO_EXIT -> "a binary exited non-zero or was killed";
            case PASS_ALL_AGREE -> "all three agree";
        };
    }
}
