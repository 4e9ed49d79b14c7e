package dev.patchgrade.core.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The summary pages' reporter of one goal execution: it draws the rows worth showing as they finish (every failing
 * row up to {@link #ROWS_SHOWN}, then the first passing rows while room is left), forgets the rest but their count,
 * and writes the execution's {@link ExecutionSummary} when the execution finishes.
 */
public final class SummaryReporter {
    /** Failing rows first: every failing row up to this many, then the first passing rows while room is left. */
    static final int ROWS_SHOWN = 500;

    private final Path reportsDirectory;
    private final String name;
    private final SectionView view;
    private final String arrayName;
    private final StringBuilder failingHtml = new StringBuilder();
    private final List<String> passingHtml = new ArrayList<>();
    private long graded;
    private long failing;
    private long rows;
    private long shown;

    /**
     * @param name the execution as the page names it, {@code <goal>.<executionId>}
     * @param arrayName the JSON report's key of the rows ({@code cases}, {@code rows}, {@code files}), or {@code null}
     *     where it lists none (an error report, an envelope)
     */
    public SummaryReporter(Path reportsDirectory, String name, SectionView view, String arrayName) {
        this.reportsDirectory = reportsDirectory;
        this.name = name;
        this.view = view == null ? SectionView.NONE : view;
        this.arrayName = arrayName;
    }

    /**
     * One finished graded item: {@code failing} as its goal judged it, which alone decides the execution's status, and
     * its row as the JSON report lists it, or {@code null} where the report lists none (an envelope's one command).
     */
    public void add(boolean failing, Object row) {
        graded++;
        this.failing += failing ? 1 : 0;
        if (row == null) {
            return;
        }
        rows++;
        if (failing ? shown >= ROWS_SHOWN : passingHtml.size() >= ROWS_SHOWN / 10) {
            return;
        }
        JsonNode tree = JsonReports.MAPPER.valueToTree(row);
        if (failing) {
            view.row(failingHtml, tree);
            shown++;
        } else {
            StringBuilder one = new StringBuilder();
            view.row(one, tree);
            passingHtml.add(one.toString());
        }
    }

    /** The execution's section, from the JSON report's head (its fields before the rows); written in place of any older one. */
    public ExecutionSummary finish(JsonNode head) {
        boolean error = head.has("error");
        ExecutionSummary.Status status = error ? ExecutionSummary.Status.ERROR
                : failing > 0 ? ExecutionSummary.Status.FAILED : ExecutionSummary.Status.PASSED;
        String detail = error ? head.path("error").path("message").asText()
                : view.detail(head, failing, failing + " of " + graded + " " + noun(arrayName) + " failing");
        ExecutionSummary summary = new ExecutionSummary(name, status, outcome(head), view.graded(head, rows), detail, body(head));
        summary.write(reportsDirectory);
        return summary;
    }

    private String body(JsonNode head) {
        StringBuilder html = new StringBuilder();
        if (head.has("error")) {
            return html.append("<p class=\"error\"><b>").append(HtmlSummary.esc(head.path("error").path("type").asText())).append("</b>: ")
                    .append(HtmlSummary.esc(head.path("error").path("message").asText())).append("</p>\n").toString();
        }
        view.above(html, head, rows);
        String tableStart = arrayName != null ? view.tableStart(head) : null;
        if (tableStart != null) {
            html.append(tableStart).append(failingHtml);
            for (String one : passingHtml) {
                if (shown >= ROWS_SHOWN) {
                    break;
                }
                html.append(one);
                shown++;
            }
            html.append("</table>\n");
        }
        if (shown < rows) {
            html.append("<p>").append(rows - shown).append(" more row(s) not shown here; every row is in ")
                    .append(HtmlSummary.esc(ExecutionSummary.jsonReport(reportsDirectory, name).getFileName().toString())).append("</p>\n");
        }
        return html.toString();
    }

    /** {@code cases} counts {@code case(s)}; a report without rows counts items. */
    static String noun(String arrayName) {
        if (arrayName == null) {
            return "item(s)";
        }
        return arrayName.endsWith("s") ? arrayName.substring(0, arrayName.length() - 1) + "(s)" : arrayName;
    }

    static String outcome(JsonNode head) {
        if (head.has("error")) {
            return ExecutionSummary.ERROR_PREFIX + head.path("error").path("type").asText();
        }
        if (head.has("worst")) {
            return head.path("worst").asText();
        }
        return head.path("verdict").asText("unknown");
    }
}
