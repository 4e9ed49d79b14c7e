package dev.patchgrade.core.differential;

import java.util.Locale;

/** The outcome of one generated case, worst first: the worst in a grade names the run. */
public enum DifferentialPattern {
    REFERENCE_IDENTITY_DRIFT,
    CANDIDATE_DIFFERS,
    TIMEOUT,
    PASS_AGREE;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean passed() {
        return this == PASS_AGREE;
    }

    /** What a reviewer should do about a case with this pattern. */
    public String advice() {
        return switch (this) {
            case REFERENCE_IDENTITY_DRIFT -> "the reference (its executable or a file its command names) is not the frozen one; nothing can be graded";
            case CANDIDATE_DIFFERS -> "the candidate's stdout or exit status differs from the frozen reference's on an input nobody committed: "
                    + "reject the patch, which changed behaviour or answers only the committed cases";
            case TIMEOUT -> "a binary ran out of time";
            case PASS_AGREE -> "reference and candidate agree";
        };
    }
}
