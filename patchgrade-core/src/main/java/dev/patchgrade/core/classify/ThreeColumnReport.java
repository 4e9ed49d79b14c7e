package dev.patchgrade.core.classify;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.cases.CasesFile;
import dev.patchgrade.core.classify.ThreeColumnGoal.Options;
import dev.patchgrade.core.classify.ThreeColumnGrading.Row;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalRun;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.RowReport;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.report.BoundedTable;
import dev.patchgrade.core.report.CaseOutcome;
import dev.patchgrade.core.report.ConsoleTable;
import dev.patchgrade.core.report.FeedbackFile;
import dev.patchgrade.core.report.StderrTail;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a three-column grade tells people, one row at a time: the outcome, the JSON row, the feedback
 * line of a failing row, the console table. It keeps the pattern counts and the first few failures,
 * never the rows.
 */
final class ThreeColumnReport implements RowReport<Row> {
    private static final int TABLE_ROWS = 30;

    private final Options options;
    private final GoalSettings settings;
    private final Map<DriftPattern, Long> counts = new EnumMap<>(DriftPattern.class);
    private final List<String> failureLines = new ArrayList<>();
    private GradeLog log = GradeLog.SILENT;
    private BoundedTable table;
    private final FeedbackFile feedback;
    private long graded;
    private long failed;

    /** One side of a row in the JSON report. */
    record Side(Integer exit, String signal, @JsonProperty("timed_out") boolean timedOut, String stdout,
            @JsonProperty("stdout_complete") boolean stdoutComplete, String stderr, @JsonProperty("stdout_file") String stdoutFile) {
        static Side of(LaunchResult result, boolean kept) {
            return new Side(result.exitCode(), result.signal(), result.timedOut(), result.stdout().excerpt(), result.stdout().complete(),
                    result.stderr().excerpt(), kept ? String.valueOf(result.stdout().file()) : null);
        }
    }

    /** The JSON report's row. */
    record Json(String id, List<String> args, String pattern, Side reference, Side candidate, String golden) {}

    /** A line of the feedback file: everything the next generation request may see, never the golden. */
    record Feedback(String id, List<String> args, String reference, String candidate, String pattern) {}

    /** The JSON report's fields before the rows. */
    record Head(String goal, String execution, String verdict, String worst, String comparison, String shard, Map<String, Long> counts,
            Map<String, Object> sandbox, long graded, long failing) {}

    ThreeColumnReport(Options options) {
        this.options = options;
        this.settings = options.settings();
        this.feedback = new FeedbackFile(ThreeColumnGoal.feedbackFile(settings));
    }

    @Override
    public void console(GradeLog console) {
        this.log = console;
        this.table = new BoundedTable(TABLE_ROWS, console.verbose(), console::info, "case", "pattern", "reference | candidate | golden");
    }

    private boolean keeps(Row row) {
        return !row.pattern().passed() || options.run().keepAll();
    }

    @Override
    public CaseOutcome outcome(Row row, GradeLog log) {
        double seconds = (row.reference().wallMicros() + row.candidate().wallMicros()) / 1e6;
        String out = "reference stdout:\n" + row.reference().stdout().excerpt() + "\ncandidate stdout:\n" + row.candidate().stdout().excerpt();
        String err = "reference stderr:\n" + row.reference().stderr().excerpt() + "\ncandidate stderr:\n" + row.candidate().stderr().excerpt();
        List<Path> files = List.of(row.reference().stdout().file(), row.reference().stderr().file(), row.candidate().stdout().file(),
                row.candidate().stderr().file());
        if (!keeps(row)) {
            CaseOutcome.delete(files);
            return CaseOutcome.passed(row.testCase().id(), seconds, out, err);
        }
        if (row.pattern().passed()) {
            return CaseOutcome.passed(row.testCase().id(), seconds, out, err).keeping(files);
        }
        String details = row.pattern().wireName() + ": " + row.pattern().advice() + "\ncomparison: " + options.comparison()
                + "\nargs: " + row.testCase().args()
                + StderrTail.side("reference", row.reference().outcome(), row.reference().stderr().excerpt())
                + StderrTail.side("candidate", row.candidate().outcome(), row.candidate().stderr().excerpt())
                + ThreeColumnText.differingLine(row)
                + "\nreference (" + row.reference().outcome() + "):\n" + row.reference().stdout().excerpt()
                + "\ncandidate (" + row.candidate().outcome() + "):\n" + row.candidate().stdout().excerpt()
                + "\ngolden:\n" + row.testCase().golden()
                + "\nfull streams: " + row.reference().stdout().file() + ", " + row.candidate().stdout().file()
                + settings.facts().hintText(row.reference().stderr().excerpt() + "\n" + row.candidate().stderr().excerpt(), log, settings.suggestions())
                + "\n";
        return CaseOutcome.failed(row.testCase().id(), seconds, row.pattern().wireName(), ThreeColumnText.message(row), details, out, err).keeping(files);
    }

    @Override
    public Json jsonRow(Row row) {
        return new Json(row.testCase().id(), row.testCase().args(), row.pattern().wireName(), Side.of(row.reference(), keeps(row)),
                Side.of(row.candidate(), keeps(row)), row.testCase().golden());
    }

    @Override
    public void reported(Row row) {
        graded++;
        counts.merge(row.pattern(), 1L, Long::sum);
        if (!row.pattern().passed()) {
            failed++;
            if (failureLines.size() < GoalResult.LINES_KEPT) {
                failureLines.add(CasesFile.printable(row.testCase().id()) + ": " + row.pattern().wireName() + " (" + ThreeColumnText.message(row) + ")");
            }
            feedback.add(new Feedback(row.testCase().id(), row.testCase().args(), row.reference().stdout().excerpt(),
                    row.candidate().stdout().excerpt(), row.pattern().wireName()));
        }
        if (log.verbose() || !row.pattern().passed()) {
            table.row(CasesFile.printable(row.testCase().id()), row.pattern().wireName(), ThreeColumnText.message(row));
        }
    }

    DriftPattern worst() {
        return counts.keySet().stream().min(Enum::compareTo).orElse(DriftPattern.PASS_ALL_AGREE);
    }

    /** The head of the JSON report, and the feedback file in its place (empty where every row passed). */
    @Override
    public Head head() {
        feedback.finish();
        Map<String, Long> countJson = new LinkedHashMap<>();
        counts.forEach((pattern, n) -> countJson.put(pattern.wireName(), n));
        DriftPattern worst = worst();
        return new Head("three-column", settings.executionId(), worst.passed() ? "pass" : "fail", worst.wireName(),
                options.comparison().toString(), options.run().shard().reported(),
                countJson, GoalRun.sandboxJson(settings), graded, failed);
    }

    /** Drops an unfinished feedback body. */
    @Override
    public void close() {
        feedback.close();
    }

    @Override
    public void printSummary(GradeLog log) {
        log.info("three-column grade of " + graded + " row(s), comparison " + options.comparison()
                + (options.run().shard().all() ? "" : " (" + options.run().shard().label() + ")") + ":");
        table.flush();
        if (table.shown() < graded) {
            log.info((graded - table.shown()) + " more row(s) not listed; list every row with "
                    + settings.suggestions().once(Setting.VERBOSE.is("true")));
        }
        ConsoleTable countTable = new ConsoleTable("pattern", "rows");
        counts.forEach((pattern, n) -> countTable.row(pattern.wireName(), Long.toString(n)));
        countTable.lines().forEach(log::info);
        DriftPattern worst = worst();
        log.info("worst pattern: " + worst.wireName() + (worst.passed() ? "" : " (" + worst.advice() + ")"));
    }

    @Override
    public GoalResult result() {
        return new GoalResult(failureLines, failed, null, worst().wireName());
    }
}
