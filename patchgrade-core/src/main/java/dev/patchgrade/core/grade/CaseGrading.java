package dev.patchgrade.core.grade;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.report.ExecutionReport;
import dev.patchgrade.core.report.SectionView;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The one shape of a grading goal: validate the parameters, snapshot the oracles, read them, run every
 * case (each row reported as soon as it and the rows before it are done, then forgotten), check the
 * oracles are unchanged, and finish the reports. A goal supplies the steps, its tally and its views of a row;
 * nothing here knows a goal. Each row goes to the tally and then to every reporter: the JUnit XML, the JSON
 * report, then the goal's own (its files, the console); at the end the tally's result goes to each of them.
 *
 * @param <C> what one case is
 * @param <R> what grading one case gives
 * @param <T> what the rows of one execution come to
 */
public abstract class CaseGrading<C, R, T extends Tally.Result> {
    protected final GoalSettings settings;
    private final dev.patchgrade.core.cases.Shard shard;
    private final int parallel;
    private final String rowsName;

    /**
     * @param shard the cases this execution grades; its name is in the suite's
     * @param rowsName the JSON report's key of the rows ({@code cases}, {@code rows})
     */
    protected CaseGrading(GoalSettings settings, dev.patchgrade.core.cases.Shard shard, int parallel, String rowsName) {
        this.settings = settings;
        this.shard = shard;
        this.parallel = parallel;
        this.rowsName = rowsName;
    }

    /** Parameters only, before any file is read: error {@code bad_parameter}. */
    protected abstract void validate();

    /** The files this grade must not see change (snapshotted before they are read). */
    protected abstract List<Path> oracles();

    /**
     * Reads the oracles, checks them against each other, and gives the cases to grade: a collection that may
     * read them only as they are taken.
     */
    protected abstract Collection<C> prepare(GradeLog log);

    /** The children's launchers, open while the cases run. */
    protected abstract AutoCloseable openLaunchers(GradeLog log);

    /**
     * How many threads grade cases per worker: more than one only where {@link #openLaunchers} bounds the
     * children to {@code parallel}, so that the extra threads queue their runs instead of adding children.
     */
    protected int callersPerWorker() {
        return 1;
    }

    protected abstract R gradeCase(C c);

    protected abstract boolean failing(R row);

    /** A new tally and the views of this execution's rows; after {@link #prepare}. */
    protected abstract GoalReporting<R, T> reporting(GradeLog log);

    /** The JSON head of an error report. */
    protected abstract Map<String, Object> errorHead(PatchgradeException error);

    /** A new view of this goal's section of the summary pages. */
    protected abstract SectionView section();

    /** The goal's own properties of the XML suite ({@code patchgrade.seed}), in its error report too; none by default. */
    protected Map<String, String> properties() {
        return Map.of();
    }

    /** Everything around the goal's steps: reports, the lock and the error handling are {@link GoalRun}'s. */
    public final GoalResult grade(GradeLog log) {
        return GoalRun.grade(settings, settings.suiteName(shard), this::errorHead, properties(), this::section, log, reports -> run(log, reports));
    }

    private GoalResult run(GradeLog log, GoalReports reports) throws Exception {
        long started = System.nanoTime();
        validate();
        CaseRunner.requireWorkers(parallel);
        LaunchFacts.Seen before = settings.facts().seen();
        DeferredLog launchLog = new DeferredLog(log);
        BackgroundLaunchers launchers = BackgroundLaunchers.open(() -> openLaunchers(launchLog));
        OracleGuard guard;
        Collection<C> cases;
        GoalReporting<R, T> reporting;
        try {
            guard = OracleGuard.snapshot(oracles());
            cases = prepare(log);
            reporting = reporting(log);
        } catch (Throwable e) {
            try {
                launchers.close();
            } catch (Exception closing) {
                e.addSuppressed(closing);
            }
            // No child ran: the error report says so, whatever the launchers found while they were open.
            settings.facts().forgetSince(before);
            throw e;
        }
        T result;
        try (Reporters<R, T> unfinished = new Reporters<>(reporting.own()); BackgroundLaunchers closedLast = launchers) {
            // The launchers before the report: its sandbox facts are what they turned out to be.
            try {
                launchers.await();
            } finally {
                launchLog.release();
            }
            try (ExecutionReport report = reports.open(settings.suiteName(shard), rowsName)) {
                // Not closed itself: the report closes its writers, and the goal's own reporters close with the launchers.
                Reporters<R, T> reporters = reports.reporters(report, () -> (System.nanoTime() - started) / 1e9, this::failing, reporting.junit(),
                        reporting.json(), reporting.own());
                CaseRunner.forEach(cases, parallel * callersPerWorker(), this::gradeCase, this::failing, row -> {
                    reporting.tally().add(row);
                    reporters.row(row);
                }, log);
                // Every run has ended and its processes are gone: the helpers exit while the oracles are checked.
                launchers.closeInBackground();
                guard.verifyUnchanged();
                result = reporting.tally().result();
                reporters.finish(result);
            }
        }
        return result.goalResult();
    }
}
