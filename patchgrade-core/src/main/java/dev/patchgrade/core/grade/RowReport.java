package dev.patchgrade.core.grade;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.report.CaseOutcome;

/**
 * What a goal tells people about its rows, one at a time as they finish: it keeps counters and the
 * first few failures, never the rows.
 *
 * @param <R> what grading one case gives
 */
public interface RowReport<R> extends AutoCloseable {
    /** Where the console lines go; before the first row. */
    void console(GradeLog log);

    /** The outcome of one row for every reporter. */
    CaseOutcome outcome(R row, GradeLog log);

    /** The row as the JSON report lists it, or {@code null} where the report lists no rows. */
    Object jsonRow(R row);

    /** The row was reported: counters, the goal's own files (feedback, candidate digests), the console table. */
    void reported(R row);

    /** The JSON report's head: its fields come before the rows. */
    Object head();

    /** After the reports are written: what the console shows at the end. */
    void printSummary(GradeLog log);

    GoalResult result();

    /** Drops what an unfinished report left (temporary files); nothing by default. */
    @Override
    default void close() {}
}
