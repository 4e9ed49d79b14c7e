package dev.patchgrade.core.grade;

import dev.patchgrade.core.report.CaseOutcome;
import dev.patchgrade.core.report.ExecutionReport;
import java.util.function.DoubleSupplier;
import java.util.function.Function;

/** The JUnit XML of a goal execution: one {@code testcase} per row, as the goal's view of a row says. */
final class JUnitReporter<R, T> implements CaseReporter<R, T> {
    private final GoalReports reports;
    private final ExecutionReport report;
    private final Function<R, CaseOutcome> view;
    private final DoubleSupplier seconds;

    /** @param seconds the suite's time, asked for when the rows are done */
    JUnitReporter(GoalReports reports, ExecutionReport report, Function<R, CaseOutcome> view, DoubleSupplier seconds) {
        this.reports = reports;
        this.report = report;
        this.view = view;
        this.seconds = seconds;
    }

    @Override
    public void row(R row) {
        report.addCase(view.apply(row));
    }

    @Override
    public void finish(T result) {
        reports.finishXml(report, seconds.getAsDouble());
    }
}
