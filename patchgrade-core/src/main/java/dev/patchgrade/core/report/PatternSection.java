package dev.patchgrade.core.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;

/** A grade whose rows each have a pattern: a line about the grade, a bar per pattern, then a row per case with its outputs side by side. */
abstract class PatternSection implements SectionView {
    private final String unit;
    private final String[] columns;

    /**
     * @param unit what a row is, as the overview counts them ({@code rows}, {@code generated cases})
     * @param columns the outputs' columns, after the case and its pattern
     */
    PatternSection(String unit, String... columns) {
        this.unit = unit;
        this.columns = columns.clone();
    }

    @Override
    public final String graded(JsonNode head, long rows) {
        return rows + " " + unit;
    }

    /** The line about the grade above the bars: its comparison, its seed. */
    abstract void intro(StringBuilder html, JsonNode head);

    /** The row's outputs, one a column. */
    abstract String[] outputs(JsonNode row);

    /** Where each output's excerpt starts: where the texts first part. */
    abstract int[] excerptsAt(String[] outputs);

    @Override
    public final void above(StringBuilder html, JsonNode head, long rows) {
        intro(html, head);
        patternCounts(html, head, rows);
    }

    @Override
    public final String tableStart(JsonNode head) {
        StringBuilder html = new StringBuilder("<table class=\"grid\"><tr><th>case</th><th>pattern</th>");
        for (String column : columns) {
            html.append("<th>").append(column).append("</th>");
        }
        return html.append("</tr>\n").toString();
    }

    /** Each output cut to 200 characters from where it parts from the others. */
    @Override
    public final void row(StringBuilder html, JsonNode row) {
        String pattern = row.path("pattern").asText();
        String[] outputs = outputs(row);
        int[] at = excerptsAt(outputs);
        html.append("<tr><td>").append(HtmlSummary.esc(row.path("id").asText())).append("</td><td class=\"").append(HtmlSummary.cssClass(pattern))
                .append("\">").append(HtmlSummary.esc(pattern)).append("</td>");
        for (int i = 0; i < outputs.length; i++) {
            html.append("<td><code>").append(HtmlSummary.esc(FirstDifference.excerpt(outputs[i], at[i], 200))).append("</code></td>");
        }
        html.append("</tr>\n");
    }

    /** Where the first two of the texts to part do so, or 0 where they are all equal. */
    static int firstPart(String... texts) {
        int first = Integer.MAX_VALUE;
        for (int i = 0; i < texts.length; i++) {
            for (int j = i + 1; j < texts.length; j++) {
                int at = FirstDifference.firstIndex(texts[i], texts[j]);
                first = at < 0 ? first : Math.min(first, at);
            }
        }
        return first == Integer.MAX_VALUE ? 0 : first;
    }

    /** A bar per pattern, its share of the rows. */
    private static void patternCounts(StringBuilder html, JsonNode report, long rows) {
        html.append("<table class=\"bars\">");
        long total = Math.max(1, rows);
        Iterator<Map.Entry<String, JsonNode>> counts = report.path("counts").fields();
        while (counts.hasNext()) {
            Map.Entry<String, JsonNode> entry = counts.next();
            long n = entry.getValue().asLong();
            html.append("<tr><td>").append(HtmlSummary.esc(entry.getKey())).append("</td><td>")
                    .append(HtmlSummary.bar(n * 100.0 / total, HtmlSummary.cssClass(entry.getKey()), -1, entry.getKey() + ": " + n + " of " + total))
                    .append("</td><td class=\"num\">").append(n).append("</td></tr>\n");
        }
        html.append("</table>\n");
    }

}
