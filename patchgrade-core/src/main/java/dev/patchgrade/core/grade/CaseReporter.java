package dev.patchgrade.core.grade;

/**
 * One output of a goal execution (the JUnit XML, the JSON report, the console, the goal's own files), fed each
 * typed row as it finishes and the execution's typed result once, at the end: the shape of Surefire's
 * {@code RunListener} and JaCoCo's {@code IReportVisitor}. A reporter sees rows and results, never another
 * reporter's output.
 *
 * @param <R> what grading one case gives
 * @param <T> what the rows of one execution come to
 */
public interface CaseReporter<R, T> extends AutoCloseable {
    /** One finished row, in case order. */
    void row(R row);

    /** After the last row, once the oracles were found unchanged. */
    void finish(T result);

    /** Drops what an unfinished output left (temporary files); nothing by default. */
    @Override
    default void close() {}
}
