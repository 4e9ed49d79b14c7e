package dev.patchgrade.core.coverage;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.coverage.PatchCoverageGoal.Options;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalRun;
import dev.patchgrade.core.grade.GoalReports;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.report.CaseOutcome;
import dev.patchgrade.core.report.ConsoleTable;
import dev.patchgrade.core.report.ConsoleText;
import dev.patchgrade.core.report.ExecutionReport;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The reports of a {@code patch-coverage} execution: one XML {@code testcase} per changed file (a failure where its
 * share of changed executable lines that ran is below {@code minimumPercent}, skipped where gcov does not know it),
 * the JSON with every changed line's detail and the diff, and the console table.
 */
final class PatchCoverageReport {
    /** The failure type of a file below {@code minimumPercent}, and the worst outcome of an execution with one. */
    static final String BELOW_MINIMUM = "lines_not_run";
    static final String PASS = "pass";
    /** The diff lines kept per file in the JSON (and so on the page); the line detail is kept whole. */
    static final int DIFF_LINES_KEPT = 2000;
    static final int LINE_TEXT_KEPT = 400;

    private final Options options;
    private final GoalSettings settings;
    private final Git.Patch patch;
    private final Gcov gcov;
    private final List<FileCoverage> files;
    private final long cases;
    private final List<String> timedOut;
    private final long timedOutCount;
    private final List<String> withoutData;
    private final long withoutDataCount;

    PatchCoverageReport(Options options, Git.Patch patch, Gcov gcov, List<FileCoverage> files, long cases, List<String> timedOut, long timedOutCount,
            List<String> withoutData, long withoutDataCount) {
        this.options = options;
        this.settings = options.settings();
        this.patch = patch;
        this.gcov = gcov;
        this.files = List.copyOf(files);
        this.cases = cases;
        this.timedOut = List.copyOf(timedOut);
        this.timedOutCount = timedOutCount;
        this.withoutData = List.copyOf(withoutData);
        this.withoutDataCount = withoutDataCount;
    }

    GoalResult write(GoalReports reports, GradeLog log, double seconds) {
        List<String> failures = new ArrayList<>();
        try (ExecutionReport report = reports.open(settings.className(), "files")) {
            if (files.isEmpty()) {
                String message = "git diff " + options.base() + " changes no line of a C or C++ file under " + patch.root() + ": nothing to measure";
                report.add(new CaseOutcome("(no C/C++ changes)", 0, CaseOutcome.Status.SKIPPED, null, message, message, null, null), null);
            }
            for (FileCoverage file : files) {
                boolean below = file.below(options.minimumPercent());
                if (below) {
                    failures.add(file.path() + ": " + failureMessage(file));
                }
                report.add(outcome(file, below), row(file, below));
            }
            reports.finish(report, seconds, head(failures.isEmpty()));
        }
        printTable(log);
        List<String> kept = failures.size() <= GoalResult.LINES_KEPT ? failures : failures.subList(0, GoalResult.LINES_KEPT);
        return new GoalResult(kept, failures.size(), null, failures.isEmpty() ? PASS : BELOW_MINIMUM);
    }

    /** "2 of 5 changed executable lines run (40%) < minimumPercent 100; never run: 12-14, 20". */
    String failureMessage(FileCoverage file) {
        return summary(file) + " < minimumPercent " + number(options.minimumPercent()) + "; never run: " + LineRanges.format(file.notRun());
    }

    static String summary(FileCoverage file) {
        return file.run().size() + " of " + file.executable().size() + " changed executable line" + (file.executable().size() == 1 ? "" : "s")
                + " run (" + percent(file.percent()) + ")";
    }

    private CaseOutcome outcome(FileCoverage file, boolean below) {
        if (!file.known()) {
            String message = "not measured: gcov knows no line of it in the coverage build (not compiled into it, or no code, declarations only)";
            return new CaseOutcome(file.path(), 0, CaseOutcome.Status.SKIPPED, null, message, message, detail(file), null);
        }
        if (below) {
            return CaseOutcome.failed(file.path(), 0, BELOW_MINIMUM, failureMessage(file), detail(file), null, null);
        }
        return CaseOutcome.passed(file.path(), 0, (file.executable().isEmpty() ? "no changed line is executable" : summary(file)
                + (file.notRun().isEmpty() ? "" : "; never run: " + LineRanges.format(file.notRun()))) + "\n" + detail(file), null);
    }

    /** Each changed executable line, run or not, and by which cases. */
    private static String detail(FileCoverage file) {
        StringBuilder text = new StringBuilder();
        text.append("changed lines: ").append(LineRanges.format(file.changed())).append('\n');
        for (FileCoverage.LineRun line : file.executable()) {
            text.append("line ").append(line.line()).append(": ");
            if (!line.ran()) {
                text.append("never run\n");
                continue;
            }
            text.append("run ").append(line.count()).append(" time(s) by ").append(line.cases()).append(" case(s): ")
                    .append(String.join(", ", line.firstCases().stream().map(dev.patchgrade.core.cases.CasesFile::printable).toList()))
                    .append(line.cases() > line.firstCases().size() ? ", ..." : "").append('\n');
        }
        return text.toString();
    }

    private Map<String, Object> row(FileCoverage file, boolean below) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("file", file.path());
        row.put("verdict", !file.known() ? "not_measured" : below ? "fail" : "pass");
        row.put("percent", file.percent());
        row.put("changed_lines", file.changed());
        row.put("executable_lines", file.executableLines());
        row.put("run_lines", file.run());
        row.put("not_run_lines", file.notRun());
        row.put("not_run_ranges", LineRanges.format(file.notRun()));
        List<Map<String, Object>> lines = new ArrayList<>();
        Map<Integer, FileCoverage.LineRun> byLine = new HashMap<>();
        for (FileCoverage.LineRun line : file.executable()) {
            byLine.put(line.line(), line);
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("line", line.line());
            entry.put("count", line.count());
            entry.put("cases", line.cases());
            entry.put("first_cases", line.firstCases());
            lines.add(entry);
        }
        row.put("lines", lines);
        List<Map<String, Object>> hunks = new ArrayList<>();
        int kept = 0;
        boolean cut = false;
        for (PatchDiff.Hunk hunk : file.change().hunks()) {
            if (kept >= DIFF_LINES_KEPT) {
                cut = true;
                break;
            }
            List<Map<String, Object>> diffLines = new ArrayList<>();
            for (PatchDiff.Line line : hunk.lines()) {
                if (kept++ >= DIFF_LINES_KEPT) {
                    cut = true;
                    break;
                }
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("kind", String.valueOf(line.kind()));
                entry.put("line", line.line());
                entry.put("text", line.text().length() <= LINE_TEXT_KEPT ? line.text() : line.text().substring(0, LINE_TEXT_KEPT) + "...");
                if (line.kind() == '+') {
                    FileCoverage.LineRun run = byLine.get(line.line());
                    entry.put("status", run == null ? "not_executable" : run.ran() ? "run" : "not_run");
                }
                diffLines.add(entry);
            }
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("header", hunk.header());
            entry.put("lines", diffLines);
            hunks.add(entry);
        }
        row.put("hunks", hunks);
        row.put("hunks_cut", cut);
        return row;
    }

    private Map<String, Object> head(boolean passed) {
        long executable = files.stream().mapToLong(f -> f.executable().size()).sum();
        long run = files.stream().mapToLong(f -> f.run().size()).sum();
        Map<String, Object> head = GoalRun.head("goal", "patch-coverage", "execution", settings.executionId(), "verdict", passed ? "pass" : "fail",
                "worst", passed ? PASS : BELOW_MINIMUM);
        head.put("base", options.base());
        head.put("base_object", patch.baseObject());
        head.put("source_root", patch.root().toString());
        head.put("command", options.command());
        head.put("cases_file", options.run().cases().toString());
        head.put("gcov", gcov.tool());
        head.put("gcov_version", gcov.version());
        head.put("minimum_percent", options.minimumPercent());
        head.put("cases", cases);
        head.put("cases_timed_out", timedOutCount);
        head.put("timed_out_cases", timedOut);
        head.put("cases_without_data", withoutDataCount);
        head.put("cases_without_data_named", withoutData);
        head.put("changed_files", files.size());
        head.put("changed_lines", files.stream().mapToLong(f -> f.changed().size()).sum());
        head.put("executable_lines", executable);
        head.put("run_lines", run);
        head.put("percent", executable == 0 ? null : run * 100.0 / executable);
        head.put("files_not_measured", files.stream().filter(f -> !f.known()).map(FileCoverage::path).toList());
        head.put("sandbox", GoalRun.sandboxJson(settings));
        return head;
    }

    private void printTable(GradeLog log) {
        if (files.isEmpty()) {
            return;
        }
        ConsoleTable table = new ConsoleTable("file", "run", "share", "never run");
        long executable = 0;
        long run = 0;
        for (FileCoverage file : files) {
            executable += file.executable().size();
            run += file.run().size();
            String never = file.known() ? LineRanges.format(file.notRun()) : "(not measured)";
            table.row(ConsoleText.safe(file.path()), file.run().size() + "/" + file.executable().size(), percent(file.percent()),
                    never.length() > 80 ? never.substring(0, 77) + "..." : never);
        }
        table.lines().forEach(log::info);
        Double share = executable == 0 ? null : run * 100.0 / executable;
        String line = "patch coverage: " + run + " of " + executable + " changed executable line(s) run (" + percent(share) + ") by " + cases
                + " case(s); minimumPercent " + number(options.minimumPercent());
        if (options.minimumPercent() == 0 && run < executable) {
            log.info(line + " (report only: " + settings.suggestions().setting(Setting.MINIMUM_PERCENT) + " makes it a gate)");
        } else {
            log.info(line);
        }
    }

    static String percent(Double share) {
        if (share == null) {
            return "-";
        }
        // Never rounded up to 100: a file with one line in a thousand not run is not at 100%.
        double floored = Math.floor(share * 10) / 10;
        return (floored == Math.rint(floored) ? String.format(Locale.ROOT, "%.0f", floored) : String.format(Locale.ROOT, "%.1f", floored)) + "%";
    }

    static String number(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }
}
