package dev.patchgrade.core.coverage;

import dev.patchgrade.core.grade.GoalRun;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.JsonView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the JSON report says of a patch-coverage execution: per changed file every changed line's detail and the
 * diff (which the summary page draws), and a head with the patch, the gcov and the totals.
 */
record PatchCoverageJson(GoalSettings settings, double minimumPercent) implements JsonView<FileCoverage, PatchCoverageResult> {
    /** The diff lines kept per file in the JSON (and so on the page); the line detail is kept whole. */
    static final int DIFF_LINES_KEPT = 2000;
    static final int LINE_TEXT_KEPT = 400;

    @Override
    public Map<String, Object> row(FileCoverage file) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("file", file.path());
        row.put("verdict", !file.known() ? "not_measured" : file.below(minimumPercent) ? "fail" : "pass");
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
                diffLines.add(diffLine(line, byLine));
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

    /** One line of the diff; an added one says whether it ran. */
    private static Map<String, Object> diffLine(PatchDiff.Line line, Map<Integer, FileCoverage.LineRun> byLine) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("kind", String.valueOf(line.kind()));
        entry.put("line", line.line());
        entry.put("text", line.text().length() <= LINE_TEXT_KEPT ? line.text() : line.text().substring(0, LINE_TEXT_KEPT) + "...");
        if (line.kind() == '+') {
            FileCoverage.LineRun run = byLine.get(line.line());
            entry.put("status", run == null ? "not_executable" : run.ran() ? "run" : "not_run");
        }
        return entry;
    }

    @Override
    public Map<String, Object> head(PatchCoverageResult result) {
        PatchCoverageGoal.Options options = result.options();
        Git.Patch patch = result.patch();
        List<FileCoverage> files = result.files();
        Map<String, Object> head = GoalRun.head("goal", "patch-coverage", "execution", settings.executionId(), "verdict",
                result.passed() ? "pass" : "fail", "worst", result.worst());
        head.put("base", options.base());
        head.put("base_object", patch.baseObject());
        head.put("source_root", patch.root().toString());
        head.put("command", options.command());
        head.put("cases_file", options.run().cases().toString());
        head.put("gcov", result.gcov().tool());
        head.put("gcov_version", result.gcov().version());
        head.put("minimum_percent", options.minimumPercent());
        head.put("cases", result.cases());
        head.put("cases_timed_out", result.timedOutCount());
        head.put("timed_out_cases", result.timedOut());
        head.put("cases_without_data", result.withoutDataCount());
        head.put("cases_without_data_named", result.withoutData());
        head.put("changed_files", files.size());
        head.put("changed_lines", files.stream().mapToLong(f -> f.changed().size()).sum());
        head.put("executable_lines", result.executableLines());
        head.put("run_lines", result.runLines());
        head.put("percent", result.percent());
        head.put("files_not_measured", files.stream().filter(f -> !f.known()).map(FileCoverage::path).toList());
        head.put("sandbox", GoalRun.sandboxJson(settings));
        return head;
    }
}
