package dev.patchgrade.core.report;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * How one goal's execution looks on the summary pages. The goal hands its view to its reports when it opens
 * them, so the page never tells goals apart by a name in their JSON. A view sees the JSON tree of each row
 * and of the head, the same values the JSON report gives; it may keep what the first rows taught it, so
 * each execution gets a view of its own.
 */
public interface SectionView {
    /** A section without rows and with nothing above them: an error, or a goal the page has no look for. */
    SectionView NONE = (head, rows) -> "";

    /** The overview's "graded" column: how much was graded. */
    String graded(JsonNode head, long rows);

    /**
     * What {@code check} says of an execution that did not stop with an error, after its outcome.
     *
     * @param failing how many graded items the goal judged failing
     * @param failingOfRows how many of how many rows failed ({@code 2 of 3 case(s) failing}), said by default
     */
    default String detail(JsonNode head, long failing, String failingOfRows) {
        return failingOfRows;
    }

    /** What stands above the rows: bars, counts, the seed. */
    default void above(StringBuilder html, JsonNode head, long rows) {}

    /** The head of the rows' table, or {@code null} for a section without one; asked after the rows are drawn. */
    default String tableStart(JsonNode head) {
        return null;
    }

    /** One row of the table. */
    default void row(StringBuilder html, JsonNode row) {}
}
