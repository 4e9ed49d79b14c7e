package dev.patchgrade.core.digest;

import dev.patchgrade.core.cases.Case;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.report.FirstDifference;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One graded case: the candidate's tuple, the drift from gold, how many reruns the time bucket took,
 * and the first differing line of each drifting stream whose gold keeps an excerpt.
 */
record DigestRow(Case testCase, DigestTuple gold, DigestTuple candidate, List<DigestTuple.Drift> drifts, int reruns, LaunchResult launch,
        List<FirstDifference.Line> lines, String finding) {
    boolean failed() {
        return !drifts.isEmpty();
    }

    /** Its streams and candidate digest are kept for people to look at: a failing row's, or every row's with keepAll. */
    boolean keeps(boolean keepAll) {
        return failed() || keepAll;
    }

    /** The streams kept as files: a failing case's, or every case's with keepAll (the grading kept them). */
    List<Path> keptStreams() {
        return launch.started() && launch.stdout().file() != null ? List.of(launch.stdout().file(), launch.stderr().file()) : List.of();
    }

    /** The candidate reported a sanitizer error the gold does not have: a bug to fix, not a behaviour to record. */
    boolean sanitizerFinding() {
        return finding != null;
    }

    /** The differing lines as the message and the console show them: a sanitizer's finding in place of its stderr banner. */
    List<String> shownLines() {
        List<String> shown = new ArrayList<>();
        for (FirstDifference.Line line : lines) {
            if (finding == null || !line.stream().equals("stderr")) {
                shown.add(line.describe());
            }
        }
        if (finding != null) {
            shown.add(finding);
        }
        return shown;
    }

    /** The most severe of the row's drifts, whatever order they were found in; {@code null} when it passed. */
    DriftField worst() {
        DriftField worst = null;
        for (DigestTuple.Drift drift : drifts) {
            worst = DriftField.worse(worst, drift.field());
        }
        return worst;
    }
}
