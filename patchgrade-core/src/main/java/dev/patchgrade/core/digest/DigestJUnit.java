package dev.patchgrade.core.digest;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.digest.DigestGoal.Options;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.report.CaseOutcome;
import dev.patchgrade.core.report.StderrTail;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/** What the JUnit XML says of a digest row: a failure's message has the drifts, its body the tuples, the streams and what to do.
 *
 * @param log where a hint about the sandbox goes, once
 */
record DigestJUnit(Options options, GradeLog log) implements Function<DigestRow, CaseOutcome> {
    @Override
    public CaseOutcome apply(DigestRow row) {
        GoalSettings settings = options.settings();
        LaunchResult launch = row.launch();
        String out = launch.started() ? launch.stdout().excerpt() : "";
        String err = launch.started() ? launch.stderr().excerpt() : launch.startFailure().describe();
        double seconds = launch.wallMicros() / 1e6;
        List<Path> kept = row.keptStreams();
        if (!row.keeps(options.run().keepAll())) {
            return CaseOutcome.passed(row.testCase().id(), seconds, out, err);
        }
        if (!row.failed()) {
            return CaseOutcome.passed(row.testCase().id(), seconds, out, err).keeping(kept);
        }
        StringBuilder what = new StringBuilder();
        row.drifts().forEach(d -> what.append(d.describe()).append('\n'));
        row.shownLines().forEach(l -> what.append(l).append('\n'));
        String details = what + "\ngold:      " + GoldFile.json(row.gold(), null, List.of())
                + "\ncandidate: " + GoldFile.json(row.candidate(), null, List.of())
                + "\nargs: " + row.testCase().args()
                + (row.sanitizerFinding() ? "\ncandidate: " + launch.outcome() + "; its stderr is the sanitizer's report, summed up above"
                        : StderrTail.side("candidate", launch.outcome(), launch.started() ? launch.stderr().excerpt() : null))
                + (launch.started() ? "\nfull streams: " + launch.stdout().file() + " and " + launch.stderr().file() : "")
                + (launch.started() ? settings.facts().hintText(launch.stderr().excerpt(), log, settings.suggestions()) : "")
                + (row.sanitizerFinding() ? "\nthe candidate's sanitizer build reported an error the gold does not have (a memory or "
                        + "undefined-behaviour bug): fix the candidate; re-recording the gold would lock the bug in\n"
                        : "\nif the new behaviour is intended: " + settings.rerecord("record-digest") + ", and commit the gold with the change\n");
        return CaseOutcome.failed(row.testCase().id(), seconds, row.worst().wireName(), DigestText.message(row), details, out, err).keeping(kept);
    }
}
