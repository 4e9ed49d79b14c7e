package dev.patchgrade.core.differential;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.cases.CasesFile;
import dev.patchgrade.core.differential.DifferentialGoal.Options;
import dev.patchgrade.core.grade.CaseReporter;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.report.BoundedTable;
import dev.patchgrade.core.report.ConsoleTable;

/** The console of a differential execution: a table of the differing cases (every case when verbose), the pattern counts, the seed and the worst. */
final class DifferentialConsole implements CaseReporter<DifferentialRow, DifferentialResult> {
    static final int TABLE_ROWS = 30;

    private final Options options;
    private final GoalSettings settings;
    private final Seed seed;
    private final GradeLog log;
    private final BoundedTable table;

    DifferentialConsole(Options options, Seed seed, GradeLog log) {
        this.options = options;
        this.settings = options.settings();
        this.seed = seed;
        this.log = log;
        this.table = new BoundedTable(TABLE_ROWS, log.verbose(), log::info, "case", "pattern", "reference | candidate");
    }

    @Override
    public void row(DifferentialRow row) {
        if (log.verbose() || !row.pattern().passed()) {
            table.row(CasesFile.printable(row.testCase().id()), row.pattern().wireName(), DifferentialText.message(row));
        }
    }

    @Override
    public void finish(DifferentialResult result) {
        log.info("differential grade of " + result.graded() + " generated case(s), seed " + seed + ", comparison " + options.comparison()
                + (options.run().shard().all() ? "" : " (" + options.run().shard().label() + ")") + ":");
        table.flush();
        if (table.shown() < result.graded()) {
            log.info((result.graded() - table.shown()) + " more case(s) not listed; list every case with "
                    + settings.suggestions().once(Setting.VERBOSE.is("true")));
        }
        ConsoleTable counts = new ConsoleTable("pattern", "cases");
        result.counts().forEach((pattern, n) -> counts.row(pattern.wireName(), Long.toString(n)));
        counts.lines().forEach(log::info);
        log.info("seed " + seed + ": the same cases again with " + settings.suggestions().once(Setting.SEED.is(seed.toString())));
        DifferentialPattern worst = result.worst();
        log.info("worst pattern: " + worst.wireName() + (worst.passed() ? "" : " (" + worst.advice() + ")"));
    }
}
