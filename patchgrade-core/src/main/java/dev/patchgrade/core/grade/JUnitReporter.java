package dev.patchgrade.core.grade;

import dev.patchgrade.core.report.CaseOutcome;
import dev.patchgrade.core.report.ExecutionReport;
import java.util.function.Function;

/** The JUnit XML of a goal execution: one {@code testcase} per row, as the goal's view of a row says. */
final class JUnitReporter<R, T> implements CaseReporter<R, T> {
    private final GoalReports reports;
    private final ExecutionReport report;
    private final Function<R, CaseOutcome> view;
    private final long startedNanos;

    /** @param startedNanos when the execution started, for the suite's time */
    JUnitReporter(GoalReports reports, ExecutionReport report, Function<R, CaseOutcome> view, long startedNanos) {
        this.reports = reports;
        this.report = report;
        this.view = view;
        this.startedNanos = startedNanos;
    }

    @Override
    public void row(R row) {
        report.addCase(view.apply(row));
    }

    @Override
    public void finish(T result) {
        reports.finishXml(report, (System.nanoTime() - startedNanos) / 1e9);
    }
}
