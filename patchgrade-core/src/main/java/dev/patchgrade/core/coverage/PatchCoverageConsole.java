package dev.patchgrade.core.coverage;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.grade.CaseReporter;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.report.ConsoleTable;
import dev.patchgrade.core.report.ConsoleText;

/** The console of a patch-coverage execution: a table of the changed files, then the totals against minimumPercent. */
record PatchCoverageConsole(GoalSettings settings, GradeLog log) implements CaseReporter<FileCoverage, PatchCoverageResult> {
    @Override
    public void row(FileCoverage file) {}

    @Override
    public void finish(PatchCoverageResult result) {
        if (result.files().isEmpty()) {
            return;
        }
        ConsoleTable table = new ConsoleTable("file", "run", "share", "never run");
        for (FileCoverage file : result.files()) {
            String never = file.known() ? LineRanges.format(file.notRun()) : "(not measured)";
            table.row(ConsoleText.safe(file.path()), file.run().size() + "/" + file.executable().size(), PatchCoverageText.percent(file.percent()),
                    never.length() > 80 ? never.substring(0, 77) + "..." : never);
        }
        table.lines().forEach(log::info);
        double minimum = result.options().minimumPercent();
        long executable = result.executableLines();
        long run = result.runLines();
        String line = "patch coverage: " + run + " of " + executable + " changed executable line(s) run (" + PatchCoverageText.percent(result.percent())
                + ") by " + result.cases() + " case(s); minimumPercent " + PatchCoverageText.number(minimum);
        if (minimum == 0 && run < executable) {
            log.info(line + " (report only: " + settings.suggestions().setting(Setting.MINIMUM_PERCENT) + " makes it a gate)");
        } else {
            log.info(line);
        }
    }
}
