package dev.patchgrade.core.classify;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.cases.CasesFile;
import dev.patchgrade.core.classify.ThreeColumnGoal.Options;
import dev.patchgrade.core.classify.ThreeColumnGrading.Row;
import dev.patchgrade.core.grade.CaseReporter;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.report.BoundedTable;
import dev.patchgrade.core.report.ConsoleTable;

/** The console of a three-column execution: a table of the failing rows (every row when verbose), the pattern counts and the worst. */
final class ThreeColumnConsole implements CaseReporter<Row, ThreeColumnResult> {
    static final int TABLE_ROWS = 30;

    private final Options options;
    private final GoalSettings settings;
    private final GradeLog log;
    private final BoundedTable table;

    ThreeColumnConsole(Options options, GradeLog log) {
        this.options = options;
        this.settings = options.settings();
        this.log = log;
        this.table = new BoundedTable(TABLE_ROWS, log.verbose(), log::info, "case", "pattern", "reference | candidate | golden");
    }

    @Override
    public void row(Row row) {
        if (log.verbose() || !row.pattern().passed()) {
            table.row(CasesFile.printable(row.testCase().id()), row.pattern().wireName(), ThreeColumnText.message(row));
        }
    }

    @Override
    public void finish(ThreeColumnResult result) {
        log.info("three-column grade of " + result.graded() + " row(s), comparison " + options.comparison()
                + (options.run().shard().all() ? "" : " (" + options.run().shard().label() + ")") + ":");
        table.flush();
        if (table.shown() < result.graded()) {
            log.info((result.graded() - table.shown()) + " more row(s) not listed; list every row with "
                    + settings.suggestions().once(Setting.VERBOSE.is("true")));
        }
        ConsoleTable counts = new ConsoleTable("pattern", "rows");
        result.counts().forEach((pattern, n) -> counts.row(pattern.wireName(), Long.toString(n)));
        counts.lines().forEach(log::info);
        DriftPattern worst = result.worst();
        log.info("worst pattern: " + worst.wireName() + (worst.passed() ? "" : " (" + worst.advice() + ")"));
    }
}
