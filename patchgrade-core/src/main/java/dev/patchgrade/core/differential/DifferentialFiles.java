package dev.patchgrade.core.differential;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.patchgrade.core.cases.Case;
import dev.patchgrade.core.differential.DifferentialGoal.Options;
import dev.patchgrade.core.grade.CaseReporter;
import dev.patchgrade.core.report.FeedbackFile;
import java.util.List;

/** The differential goal's feedback file: a line per differing case, its smallest input first, put in place at the end (empty where every case agreed). */
final class DifferentialFiles implements CaseReporter<DifferentialRow, DifferentialResult> {
    private final Seed seed;
    private final FeedbackFile feedback;

    /** The input a feedback line was cut down from. */
    record Original(List<String> args, String stdin) {}

    /** A line of the feedback file: the smallest input that differs, both outputs on it, and the case it came from. */
    record Feedback(String id, List<String> args, String stdin, String reference, String candidate,
            @JsonProperty("reference_exit") Integer referenceExit, @JsonProperty("candidate_exit") Integer candidateExit, String pattern,
            long seed, Original original) {}

    DifferentialFiles(Options options, Seed seed) {
        this.seed = seed;
        this.feedback = new FeedbackFile(DifferentialGoal.feedbackFile(options.settings()));
    }

    @Override
    public void row(DifferentialRow row) {
        if (row.pattern().passed()) {
            return;
        }
        Case shown = row.shown();
        feedback.add(new Feedback(row.testCase().id(), shown.args(), shown.stdin(), row.shownReference().stdout().excerpt(),
                row.shownCandidate().stdout().excerpt(), row.shownReference().exitCode(), row.shownCandidate().exitCode(), row.pattern().wireName(),
                seed.value(), new Original(row.testCase().args(), row.testCase().stdin())));
    }

    @Override
    public void finish(DifferentialResult result) {
        feedback.finish();
    }

    /** Drops an unfinished feedback body. */
    @Override
    public void close() {
        feedback.close();
    }
}
