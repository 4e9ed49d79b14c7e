package dev.patchgrade.core.classify;

import dev.patchgrade.core.classify.ThreeColumnGoal.Options;
import dev.patchgrade.core.classify.ThreeColumnGrading.Row;
import dev.patchgrade.core.grade.CaseReporter;
import dev.patchgrade.core.report.CaseOutcome;
import dev.patchgrade.core.report.FeedbackFile;
import java.util.List;

/**
 * The three-column goal's own files: the full streams of the rows worth looking at (the others' go as soon as
 * the row is reported), and the feedback file, a line per failing row, put in place at the end (empty where
 * every row passed).
 */
final class ThreeColumnFiles implements CaseReporter<Row, ThreeColumnResult> {
    private final Options options;
    private final FeedbackFile feedback;

    /** A line of the feedback file: everything the next generation request may see, never the golden. */
    record Feedback(String id, List<String> args, String reference, String candidate, String pattern) {}

    ThreeColumnFiles(Options options) {
        this.options = options;
        this.feedback = new FeedbackFile(ThreeColumnGoal.feedbackFile(options.settings()));
    }

    @Override
    public void row(Row row) {
        if (!row.keeps(options.run().keepAll())) {
            CaseOutcome.delete(row.files());
        }
        if (!row.pattern().passed()) {
            feedback.add(new Feedback(row.testCase().id(), row.testCase().args(), row.reference().stdout().excerpt(),
                    row.candidate().stdout().excerpt(), row.pattern().wireName()));
        }
    }

    @Override
    public void finish(ThreeColumnResult result) {
        feedback.finish();
    }

    /** Drops an unfinished feedback body. */
    @Override
    public void close() {
        feedback.close();
    }
}
