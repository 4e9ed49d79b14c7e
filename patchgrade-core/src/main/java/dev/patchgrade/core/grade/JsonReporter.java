package dev.patchgrade.core.grade;

import dev.patchgrade.core.report.ExecutionReport;
import java.util.function.Predicate;

/** The JSON report of a goal execution (and the summary pages' record of it): a row per case, the head from the result. */
final class JsonReporter<R, T> implements CaseReporter<R, T> {
    private final ExecutionReport report;
    private final Predicate<R> failing;
    private final JsonView<R, T> view;

    JsonReporter(ExecutionReport report, Predicate<R> failing, JsonView<R, T> view) {
        this.report = report;
        this.failing = failing;
        this.view = view;
    }

    @Override
    public void row(R row) {
        // A row the report does not list (an envelope's one command) still counts: its failing decides the summary's status.
        report.addRow(failing.test(row), view.row(row));
    }

    @Override
    public void finish(T result) {
        report.finishJson(view.head(result));
    }
}
