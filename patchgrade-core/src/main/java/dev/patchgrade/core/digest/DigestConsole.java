package dev.patchgrade.core.digest;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.cases.CasesFile;
import dev.patchgrade.core.digest.DigestGoal.Options;
import dev.patchgrade.core.grade.CaseReporter;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.report.BoundedTable;

/** The console of a digest execution: a table of the drifting cases (every case when verbose), then the outcome and what to do. */
final class DigestConsole implements CaseReporter<DigestRow, DigestResult> {
    static final int TABLE_ROWS = 30;

    private final Options options;
    private final GoalSettings settings;
    private final GradeLog log;
    private final BoundedTable table;

    DigestConsole(Options options, GradeLog log) {
        this.options = options;
        this.settings = options.settings();
        this.log = log;
        this.table = new BoundedTable(TABLE_ROWS, log.verbose(), log::info, "case", "verdict", "drift");
    }

    @Override
    public void row(DigestRow row) {
        if (row.failed() || log.verbose()) {
            table.row(CasesFile.printable(row.testCase().id()), row.failed() ? "FAIL" : "pass", DigestText.consoleDrift(row));
            row.shownLines().forEach(line -> table.continuation("", "", line));
        }
    }

    @Override
    public void finish(DigestResult result) {
        long graded = result.graded();
        long failed = result.failed();
        long findings = result.findings();
        log.info("digest of " + graded + " case(s) against " + options.gold() + (options.run().shard().all() ? "" : " (" + options.run().shard().label() + ")") + ":");
        table.flush();
        long hidden = graded - table.shown();
        if (hidden > 0) {
            log.info(hidden + " more case(s) not listed (" + (graded - failed) + " passed" + (failed > table.shown() ? ", and failures beyond the first "
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
}
