package dev.patchgrade.core.grade;

/** A goal's JSON report: what it lists of a row, and what of the whole execution comes before the rows. */
public interface JsonView<R, T> {
    /** The row's entry, or {@code null} where the report lists no rows (an envelope's one command). */
    Object row(R row);

    Object head(T result);
}
