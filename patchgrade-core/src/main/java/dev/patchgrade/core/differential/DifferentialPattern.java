package dev.patchgrade.core.differential;

import dev.patchgrade.core.classify.Comparison;
import dev.patchgrade.core.launch.CapturedStream;
import dev.patchgrade.core.launch.LaunchResult;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Objects;

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

    /**
     * How a run pair compares: out of time, else the same exit status (or signal) and stdout under the rule, or not.
     * Only stdout and the exit status count; stderr is kept beside the case.
     */
    static DifferentialPattern of(Comparison rule, LaunchResult reference, LaunchResult candidate) {
        if (reference.timedOut() || candidate.timedOut()) {
            return TIMEOUT;
        }
        boolean sameEnd = Objects.equals(reference.exitCode(), candidate.exitCode()) && Objects.equals(reference.signal(), candidate.signal())
                && reference.outputLimited() == candidate.outputLimited();
        if (!sameEnd) {
            // Unread: a different exit already decides, and the comparison would read streams for nothing.
            return CANDIDATE_DIFFERS;
        }
        return compare(rule, stdout(reference), stdout(candidate)) ? PASS_AGREE : CANDIDATE_DIFFERS;
    }

    /** Compares and closes both sides; closing a kept output checks it still holds what was captured. */
    private static boolean compare(Comparison rule, Reader left, Reader right) {
        try (left; right) {
            return rule.equal(left, right);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read an output back to compare it", e);
        }
    }

    /** Bytes as ISO-8859-1 characters, so comparisons are byte-exact whatever the encoding. */
    private static Reader stdout(LaunchResult result) {
        return new BufferedReader(new InputStreamReader(CapturedStream.open(result.stdout()), StandardCharsets.ISO_8859_1));
    }
}
