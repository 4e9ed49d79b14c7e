package dev.patchgrade.core.digest;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.cases.CasesFile;
import dev.patchgrade.core.digest.DigestGoal.Options;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalRun;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.RowReport;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.report.BoundedTable;
import dev.patchgrade.core.report.CaseOutcome;
import dev.patchgrade.core.report.JsonReports;
import dev.patchgrade.core.report.StderrTail;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a digest grade tells people, one row at a time: the outcome every reporter reads, the JSON row,
 * the candidate digest and full streams of the rows worth looking at, the console table. It keeps
 * counters and the first few failures, never the rows.
 */
final class DigestReport implements RowReport<DigestRow> {
    private static final int TABLE_ROWS = 30;

    private final Options options;
    private final GoalSettings settings;
    private final Normalizer normalizer;
    private final List<String> failureLines = new ArrayList<>();
    private BoundedTable table;
    private String toolchain;
    private TimeBasis timeBasis;
    private long graded;
    private long failed;
    private long findings;
    private DriftField worst;
    private GradeLog log = GradeLog.SILENT;

    /** The JSON report's row of one case. */
    record Json(@JsonProperty("case") String caseId, String verdict, List<String> drift, @JsonProperty("drift_fields") List<String> driftFields,
            @JsonProperty("time_bucket_reruns") int timeBucketReruns, @JsonProperty("first_difference") List<Difference> firstDifference,
            ObjectNode gold, ObjectNode candidate, @JsonProperty("wall_ms") long wallMs, @JsonProperty("kept_files") List<String> keptFiles) {}

    record Difference(String stream, int line, String gold, String candidate, String text) {}

    /** The JSON report's fields before the cases. */
    record Head(String goal, String execution, String verdict, String worst, String shard, String sanitizer, String gold,
            @JsonProperty("candidate_digests") String candidateDigests, @JsonProperty("time_basis") String timeBasis, Map<String, Object> sandbox,
            long graded, long failing) {}

    DigestReport(Options options, Normalizer normalizer) {
        this.options = options;
        this.settings = options.settings();
        this.normalizer = normalizer;
    }

    /** Before the first row: the candidate digests and kept streams of an earlier grade go, so only this grade's are there. */
    void start(String goldToolchain, TimeBasis goldTimeBasis) {
        this.toolchain = goldToolchain;
        this.timeBasis = options.buckets().enabled() ? goldTimeBasis : null;
        for (Path directory : List.of(DigestGoal.candidateDirectory(settings), settings.streamsDirectory())) {
            try {
                if (Files.exists(directory)) {
                    GoldStore.deleteTree(directory);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot clear " + directory, e);
            }
        }
    }

    private boolean keeps(DigestRow row) {
        return row.failed() || options.run().keepAll();
    }

    /** The streams kept as files: a failing case's, or every case's with keepAll (the grading kept them). */
    private static List<Path> kept(LaunchResult launch) {
        return launch.started() && launch.stdout().file() != null ? List.of(launch.stdout().file(), launch.stderr().file()) : List.of();
    }

    @Override
    public CaseOutcome outcome(DigestRow row, GradeLog log) {
        LaunchResult launch = row.launch();
        String out = launch.started() ? launch.stdout().excerpt() : "";
        String err = launch.started() ? launch.stderr().excerpt() : launch.startFailure().describe();
        double seconds = launch.wallMicros() / 1e6;
        List<Path> kept = kept(launch);
        if (!keeps(row)) {
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
        return CaseOutcome.failed(row.testCase().id(), seconds, row.worst().wireName(), message(row), details, out, err).keeping(kept);
    }

    @Override
    public Json jsonRow(DigestRow row) {
        List<Difference> differences = row.lines().stream()
                .map(l -> new Difference(l.stream(), l.number(), l.gold(), l.candidate(), l.describe())).toList();
        List<String> kept = kept(row.launch()).stream().map(Path::toString).toList();
        return new Json(row.testCase().id(), row.failed() ? "fail" : "pass", row.drifts().stream().map(DigestTuple.Drift::describe).toList(),
                row.drifts().stream().map(d -> d.field().wireName()).toList(), row.reruns(), differences,
                GoldFile.json(row.gold(), null, List.of()), GoldFile.json(row.candidate(), null, List.of()), row.launch().wallMillis(), kept);
    }

    /** Counts the row, writes its candidate digest where it is kept, and lists it on the console where it is shown. */
    @Override
    public void reported(DigestRow row) {
        graded++;
        if (row.failed()) {
            failed++;
            worst = DriftField.worse(worst, row.worst());
            if (row.sanitizerFinding()) {
                findings++;
            }
            if (failureLines.size() < GoalResult.LINES_KEPT) {
                failureLines.add(CasesFile.printable(row.testCase().id()) + ": " + message(row));
            }
        }
        if (keeps(row)) {
            writeCandidate(row.candidate());
        }
        if (row.failed() || log.verbose()) {
            // Full hashes are in the reports; twelve hex digits tell them apart on a console.
            String drift = row.drifts().stream().map(DigestTuple.Drift::describe).reduce((a, b) -> a + "; " + b).orElse("")
                    .replaceAll("\\b([0-9a-f]{12})[0-9a-f]{52}\\b", "$1");
            table().row(CasesFile.printable(row.testCase().id()), row.failed() ? "FAIL" : "pass", drift);
            row.shownLines().forEach(line -> table().continuation("", "", line));
        }
    }

    /** Where the console table goes. */
    @Override
    public void console(GradeLog console) {
        this.log = console;
    }

    private BoundedTable table() {
        if (table == null) {
            table = new BoundedTable(TABLE_ROWS, log.verbose(), log::info, "case", "verdict", "drift");
        }
        return table;
    }

    private void writeCandidate(DigestTuple tuple) {
        Path directory = DigestGoal.candidateDirectory(settings);
        try {
            Files.createDirectories(directory);
            Files.writeString(directory.resolve(SafeNames.jsonFile(tuple.caseId())),
                    JsonReports.MAPPER.writeValueAsString(GoldFile.json(tuple, toolchain, options.normalize(), null, timeBasis)) + "\n",
                    StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the candidate digest of " + CasesFile.printable(tuple.caseId()) + " in " + directory, e);
        }
    }

    @Override
    public Head head() {
        return new Head("digest", settings.executionId(), failed > 0 ? "fail" : "pass", worstName(),
                options.run().shard().reported(), options.sanitizer().wireName(),
                options.gold().toString(), DigestGoal.candidateDirectory(settings).toString(), timeBasis == null ? null : timeBasis.wireName(),
                GoalRun.sandboxJson(settings), graded, failed);
    }

    private String worstName() {
        return worst == null ? "pass" : worst.wireName();
    }

    @Override
    public void printSummary(GradeLog log) {
        log.info("digest of " + graded + " case(s) against " + options.gold() + (options.run().shard().all() ? "" : " (" + options.run().shard().label() + ")") + ":");
        BoundedTable shown = table();
        shown.flush();
        long hidden = graded - shown.shown();
        if (hidden > 0) {
            log.info(hidden + " more case(s) not listed (" + (graded - failed) + " passed" + (failed > shown.shown() ? ", and failures beyond the first "
                    + TABLE_ROWS : "") + "; list every case with " + settings.suggestions().once(Setting.VERBOSE.is("true")) + ")");
        }
        log.info("outcome: " + (failed == 0 ? "PASS, every channel matched" : "FAIL, " + failed + " of " + graded + " case(s) drifted"));
        if (findings > 0) {
            log.info(findings + " case(s) failed on a sanitizer report the gold does not have: a bug in the candidate to fix, which "
                    + "re-recording would lock in");
        }
        if (failed > findings) {
            log.info("if the new behaviour is intended, re-record the gold on the known-good build with `"
                    + settings.rerecord("record-digest") + "` and commit it with the change"
                    + (findings > 0 ? " (not for the sanitizer findings)" : ""));
        }
    }

    @Override
    public GoalResult result() {
        return new GoalResult(failureLines, failed, null, worstName());
    }

    static String message(DigestRow row) {
        StringBuilder message = new StringBuilder();
        for (DigestTuple.Drift drift : row.drifts()) {
            message.append(message.length() == 0 ? "" : "; ").append(drift.describe());
        }
        if (row.reruns() > 0 && row.drifts().stream().anyMatch(d -> d.field() == DriftField.TIME_BUCKET)) {
            message.append(" (stayed shifted over ").append(row.reruns()).append(" rerun").append(row.reruns() == 1 ? "" : "s").append(')');
        }
        for (String line : row.shownLines()) {
            message.append("; ").append(line);
        }
        return message.toString();
    }
}
