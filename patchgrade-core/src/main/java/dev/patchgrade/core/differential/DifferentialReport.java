package dev.patchgrade.core.differential;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.cases.Case;
import dev.patchgrade.core.cases.CasesFile;
import dev.patchgrade.core.differential.DifferentialGoal.Options;
import dev.patchgrade.core.differential.DifferentialJson.Feedback;
import dev.patchgrade.core.differential.DifferentialJson.Head;
import dev.patchgrade.core.differential.DifferentialJson.Json;
import dev.patchgrade.core.differential.DifferentialJson.Original;
import dev.patchgrade.core.differential.DifferentialJson.ShrunkJson;
import dev.patchgrade.core.differential.DifferentialJson.Side;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalRun;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.RowReport;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.report.BoundedTable;
import dev.patchgrade.core.report.CaseOutcome;
import dev.patchgrade.core.report.ConsoleTable;
import dev.patchgrade.core.report.ConsoleText;
import dev.patchgrade.core.report.FeedbackFile;
import dev.patchgrade.core.report.FirstDifference;
import dev.patchgrade.core.report.JsonReports;
import dev.patchgrade.core.report.StderrTail;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a differential grade tells people, one generated case at a time: the outcome (leading with the smallest
 * input that still differs), the JSON row, the feedback line of a differing case, the console table. It keeps the
 * pattern counts and the first few failures, never the cases.
 */
final class DifferentialReport implements RowReport<DifferentialRow> {
    private static final int TABLE_ROWS = 30;
    /** How much of an input's JSON a failure's body shows, and its one-line message. */
    private static final int INPUT_SHOWN = 200;
    private static final int MESSAGE_INPUT = 80;
    private static final ObjectWriter ONE_LINE = JsonReports.MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT);

    private final Options options;
    private final GoalSettings settings;
    private final Seed seed;
    private final Map<DifferentialPattern, Long> counts = new EnumMap<>(DifferentialPattern.class);
    private final List<String> failureLines = new ArrayList<>();
    private final FeedbackFile feedback;
    private GradeLog log = GradeLog.SILENT;
    private BoundedTable table;
    private long generated;
    private long graded;
    private long failed;

    DifferentialReport(Options options, Seed seed) {
        this.options = options;
        this.settings = options.settings();
        this.seed = seed;
        this.feedback = new FeedbackFile(DifferentialGoal.feedbackFile(settings));
    }

    /** How many cases the generator printed, every shard's. */
    void generated(long cases) {
        generated = cases;
    }

    @Override
    public void console(GradeLog console) {
        this.log = console;
        this.table = new BoundedTable(TABLE_ROWS, console.verbose(), console::info, "case", "pattern", "reference | candidate");
    }

    private boolean keeps(DifferentialRow row) {
        return !row.pattern().passed() || options.run().keepAll();
    }

    private static List<Path> files(DifferentialRow row) {
        List<Path> files = new ArrayList<>(DifferentialGrading.files(row.reference(), row.candidate()));
        if (row.shrunk() != null && row.shrunk().reference() != row.reference()) {
            files.addAll(DifferentialGrading.files(row.shrunk().reference(), row.shrunk().candidate()));
        }
        return files;
    }

    @Override
    public CaseOutcome outcome(DifferentialRow row, GradeLog log) {
        double seconds = (row.reference().wallMicros() + row.candidate().wallMicros()) / 1e6;
        LaunchResult reference = shownReference(row);
        LaunchResult candidate = shownCandidate(row);
        String out = "reference stdout:\n" + reference.stdout().excerpt() + "\ncandidate stdout:\n" + candidate.stdout().excerpt();
        String err = "reference stderr:\n" + reference.stderr().excerpt() + "\ncandidate stderr:\n" + candidate.stderr().excerpt();
        if (!keeps(row)) {
            // Its output was let go as soon as it was compared.
            return CaseOutcome.passed(row.testCase().id(), seconds, out, err);
        }
        if (row.pattern().passed()) {
            return CaseOutcome.passed(row.testCase().id(), seconds, out, err).keeping(files(row));
        }
        StringBuilder details = new StringBuilder();
        details.append(row.pattern().wireName()).append(": ").append(row.pattern().advice())
                .append("\ncomparison: ").append(options.comparison())
                .append("\nseed: ").append(seed).append(" (reproduce with ").append(settings.suggestions().once(Setting.SEED.is(seed.toString()))).append(')');
        DifferentialRow.Shrunk shrunk = row.shrunk();
        if (shrunk != null) {
            details.append(shrunk.smaller(row.testCase()) ? "\nsmallest input that still differs: " : "\nno smaller input differs: ")
                    .append(input(shrunk.smallest()))
                    .append(" (").append(shrunk.runPairs()).append(" run pair(s) of shrinking").append(shrunk.budgetSpent()
                            ? ", stopped at the budget of " + options.shrinkBudget() : "").append(')');
        }
        details.append(StderrTail.side("reference", reference.outcome(), reference.stderr().excerpt()))
                .append(StderrTail.side("candidate", candidate.outcome(), candidate.stderr().excerpt()));
        String line = firstDifferingLine(reference.stdout().excerpt(), candidate.stdout().excerpt());
        details.append(line == null ? "" : "\n" + line)
                .append("\nreference (").append(reference.outcome()).append("):\n").append(reference.stdout().excerpt())
                .append("\ncandidate (").append(candidate.outcome()).append("):\n").append(candidate.stdout().excerpt());
        if (shrunk != null && shrunk.smaller(row.testCase())) {
            details.append("\noriginal input: ").append(input(row.testCase()))
                    .append("\nreference on it (").append(row.reference().outcome()).append("):\n").append(row.reference().stdout().excerpt())
                    .append("\ncandidate on it (").append(row.candidate().outcome()).append("):\n").append(row.candidate().stdout().excerpt());
        }
        details.append("\nfull streams: ").append(String.join(", ", files(row).stream().filter(f -> f.toString().endsWith(".stdout"))
                .map(Path::toString).toList()))
                .append(settings.facts().hintText(reference.stderr().excerpt() + "\n" + candidate.stderr().excerpt(), log, settings.suggestions()))
                .append('\n');
        return CaseOutcome.failed(row.testCase().id(), seconds, row.pattern().wireName(), message(row), details.toString(), out, err)
                .keeping(files(row));
    }

    private static LaunchResult shownReference(DifferentialRow row) {
        return row.shrunk() == null ? row.reference() : row.shrunk().reference();
    }

    private static LaunchResult shownCandidate(DifferentialRow row) {
        return row.shrunk() == null ? row.candidate() : row.shrunk().candidate();
    }

    /** What a program that did not exit 0 last said on stderr, for the one-line message. */
    private static String said(String name, LaunchResult run) {
        String last = run.exitedZero() || !run.started() ? null : StderrTail.lastLine(run.stderr().excerpt());
        return last == null ? "" : "; " + name + " stderr: " + last;
    }

    /** One line with the numbers: both sides where they part, on the input shown, and what shrinking made of it. */
    static String message(DifferentialRow row) {
        LaunchResult reference = shownReference(row);
        LaunchResult candidate = shownCandidate(row);
        String sides;
        if (row.pattern() == DifferentialPattern.TIMEOUT || !reference.outcome().equals(candidate.outcome())) {
            sides = "reference " + reference.outcome() + ", candidate " + candidate.outcome() + said("reference", reference)
                    + said("candidate", candidate);
        } else {
            String r = reference.stdout().excerpt().strip();
            String c = candidate.stdout().excerpt().strip();
            int at = Math.max(0, FirstDifference.firstIndex(r, c));
            sides = "reference=" + FirstDifference.quote(r, at, FirstDifference.WIDTH) + " candidate=" + FirstDifference.quote(c, at, FirstDifference.WIDTH);
        }
        DifferentialRow.Shrunk shrunk = row.shrunk();
        String from = shrunk == null ? "" : shrunk.smaller(row.testCase())
                ? " (shrunk from " + input(row.testCase(), MESSAGE_INPUT) + " in " + shrunk.runPairs() + " run pair(s))"
                : " (no smaller input differs)";
        return sides + " on " + input(row.shown(), MESSAGE_INPUT) + from;
    }

    /** {@code args ["7"], stdin "1\n"}: the input as JSON strings, cut and escaped for one line. */
    static String input(Case c) {
        return input(c, INPUT_SHOWN);
    }

    /** @param width how many characters of each part's JSON are shown */
    static String input(Case c, int width) {
        String text = "args " + cut(json(c.args()), width);
        if (c.stdin() != null) {
            text += ", stdin " + cut(json(c.stdin()), width);
        }
        // JSON escapes the controls; what a console would still obey (bidi overrides, say) is escaped here.
        return ConsoleText.safe(text);
    }

    private static String cut(String text, int width) {
        if (text.length() <= width) {
            return text;
        }
        int end = Character.isLowSurrogate(text.charAt(width)) ? width - 1 : width;
        return text.substring(0, end) + "...(" + text.length() + " characters)";
    }

    private static String json(Object value) {
        try {
            return ONE_LINE.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The first line where the two outputs part, each side centred on where they part, or {@code null} where they agree line for line. */
    static String firstDifferingLine(String reference, String candidate) {
        List<String> r = FirstDifference.lines(reference);
        List<String> c = FirstDifference.lines(candidate);
        for (int i = 0; i < Math.max(r.size(), c.size()); i++) {
            String ri = i < r.size() ? r.get(i) : null;
            String ci = i < c.size() ? c.get(i) : null;
            if (ri != null && ri.equals(ci)) {
                continue;
            }
            int at = ri == null || ci == null ? 0 : Math.max(0, FirstDifference.firstIndex(ri, ci));
            return "first differing line " + (i + 1) + ": reference " + side(ri, at) + " | candidate " + side(ci, at);
        }
        return null;
    }

    private static String side(String line, int at) {
        return line == null ? "(no such line)" : FirstDifference.quote(line, at, FirstDifference.WIDTH);
    }

    @Override
    public Json jsonRow(DifferentialRow row) {
        boolean kept = keeps(row);
        DifferentialRow.Shrunk shrunk = row.shrunk();
        ShrunkJson cut = shrunk == null ? null : new ShrunkJson(shrunk.smallest().args(), shrunk.smallest().stdin(), shrunk.smaller(row.testCase()),
                Side.of(shrunk.reference(), kept), Side.of(shrunk.candidate(), kept), shrunk.runPairs(), shrunk.budgetSpent());
        return new Json(row.testCase().id(), row.testCase().args(), row.testCase().stdin(), row.pattern().wireName(), Side.of(row.reference(), kept),
                Side.of(row.candidate(), kept), cut);
    }

    @Override
    public void reported(DifferentialRow row) {
        graded++;
        counts.merge(row.pattern(), 1L, Long::sum);
        if (!row.pattern().passed()) {
            failed++;
            if (failureLines.size() < GoalResult.LINES_KEPT) {
                failureLines.add(CasesFile.printable(row.testCase().id()) + ": " + row.pattern().wireName() + " (" + message(row) + ")");
            }
            Case shown = row.shown();
            feedback.add(new Feedback(row.testCase().id(), shown.args(), shown.stdin(), shownReference(row).stdout().excerpt(),
                    shownCandidate(row).stdout().excerpt(), shownReference(row).exitCode(), shownCandidate(row).exitCode(), row.pattern().wireName(),
                    seed.value(), new Original(row.testCase().args(), row.testCase().stdin())));
        }
        if (log.verbose() || !row.pattern().passed()) {
            table.row(CasesFile.printable(row.testCase().id()), row.pattern().wireName(), message(row));
        }
    }

    DifferentialPattern worst() {
        return counts.keySet().stream().min(Enum::compareTo).orElse(DifferentialPattern.PASS_AGREE);
    }

    /** The head of the JSON report, and the feedback file in its place (empty where every case agreed). */
    @Override
    public Head head() {
        feedback.finish();
        Map<String, Long> countJson = new LinkedHashMap<>();
        counts.forEach((pattern, n) -> countJson.put(pattern.wireName(), n));
        DifferentialPattern worst = worst();
        return new Head("differential", settings.executionId(), worst.passed() ? "pass" : "fail", worst.wireName(), seed.value(), seed.given(),
                options.count(), generated, options.comparison().toString(), options.shrink(),
                options.run().shard().reported(), countJson,
                GoalRun.sandboxJson(settings), graded, failed);
    }

    /** Drops an unfinished feedback body. */
    @Override
    public void close() {
        feedback.close();
    }

    @Override
    public void printSummary(GradeLog log) {
        log.info("differential grade of " + graded + " generated case(s), seed " + seed + ", comparison " + options.comparison()
                + (options.run().shard().all() ? "" : " (" + options.run().shard().label() + ")") + ":");
        table.flush();
        if (table.shown() < graded) {
            log.info((graded - table.shown()) + " more case(s) not listed; list every case with "
                    + settings.suggestions().once(Setting.VERBOSE.is("true")));
        }
        ConsoleTable countTable = new ConsoleTable("pattern", "cases");
        counts.forEach((pattern, n) -> countTable.row(pattern.wireName(), Long.toString(n)));
        countTable.lines().forEach(log::info);
        log.info("seed " + seed + ": the same cases again with " + settings.suggestions().once(Setting.SEED.is(seed.toString())));
        DifferentialPattern worst = worst();
        log.info("worst pattern: " + worst.wireName() + (worst.passed() ? "" : " (" + worst.advice() + ")"));
    }

    @Override
    public GoalResult result() {
        return new GoalResult(failureLines, failed, null, worst().wireName());
    }
}
