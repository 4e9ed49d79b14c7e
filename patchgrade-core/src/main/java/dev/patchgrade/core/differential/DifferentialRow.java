package dev.patchgrade.core.differential;

import dev.patchgrade.core.cases.Case;
import dev.patchgrade.core.launch.LaunchResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One graded case.
 *
 * @param shrunk the smallest input found that still differs, or {@code null} where the case did not differ or was not shrunk
 */
record DifferentialRow(Case testCase, LaunchResult reference, LaunchResult candidate, DifferentialPattern pattern, Shrunk shrunk) {
    /** The input the report leads with: the smallest where there is one. */
    Case shown() {
        return shrunk == null ? testCase : shrunk.smallest();
    }

    /** The reference's run on the input shown. */
    LaunchResult shownReference() {
        return shrunk == null ? reference : shrunk.reference();
    }

    /** The candidate's run on the input shown. */
    LaunchResult shownCandidate() {
        return shrunk == null ? candidate : shrunk.candidate();
    }

    /** Its full streams are kept for people to look at: a differing case's, or every case's with keepAll. */
    boolean keeps(boolean keepAll) {
        return !pattern.passed() || keepAll;
    }

    /** The stream files it kept: of both runs on the case, and on its smallest input where that was run apart. */
    List<Path> files() {
        List<Path> files = new ArrayList<>(files(reference, candidate));
        if (shrunk != null && shrunk.reference() != reference) {
            files.addAll(files(shrunk.reference(), shrunk.candidate()));
        }
        return files;
    }

    /** The stream files of two runs (none for output that was let go). */
    private static List<Path> files(LaunchResult reference, LaunchResult candidate) {
        return java.util.stream.Stream.of(reference.stdout().file(), reference.stderr().file(), candidate.stdout().file(), candidate.stderr().file())
                .filter(Objects::nonNull).toList();
    }

    /**
     * A differing case cut down.
     *
     * @param smallest the smallest input on which the two still differ (the original where nothing could go)
     * @param reference the reference's run on it
     * @param candidate the candidate's run on it
     * @param runPairs the extra runs of both that shrinking took
     * @param budgetSpent it stopped at the budget, not at a 1-minimal input
     */
    record Shrunk(Case smallest, LaunchResult reference, LaunchResult candidate, int runPairs, boolean budgetSpent) {
        boolean smaller(Case original) {
            return !(smallest.args().equals(original.args()) && Objects.equals(smallest.stdin(), original.stdin()));
        }
    }
}
