package dev.patchgrade.core.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.patchgrade.core.hashing.Sha256;
import java.util.ArrayList;
import java.util.List;

/** A digest grade on the page: a grid of the tuple's fields per case, the drifting ones marked; the columns are the gold's fields, in its order. */
public final class DigestSection implements SectionView {

    private List<String> fields;

    @Override
    public String graded(JsonNode head, long rows) {
        return rows + " cases";
    }

    @Override
    public String tableStart(JsonNode head) {
        StringBuilder html = new StringBuilder("<table class=\"grid\"><tr><th>case</th><th>verdict</th>");
        (fields == null ? List.<String>of() : fields).forEach(field -> html.append("<th>").append(HtmlSummary.esc(field)).append("</th>"));
        return html.append("</tr>\n").toString();
    }

    @Override
    public void row(StringBuilder html, JsonNode row) {
        if (fields == null) {
            fields = new ArrayList<>();
            row.path("gold").fieldNames().forEachRemaining(name -> {
                if (!name.equals("case")) {
                    fields.add(name);
                }
            });
        }
        boolean failed = "fail".equals(row.path("verdict").asText());
        List<String> drifted = new ArrayList<>();
        row.path("drift_fields").forEach(field -> drifted.add(field.asText()));
        html.append("<tr><td>").append(HtmlSummary.esc(row.path("case").asText())).append("</td><td class=\"").append(failed ? "bad" : "ok").append("\">")
                .append(failed ? "FAIL" : "pass").append("</td>");
        for (String field : fields) {
            String gold = shortValue(row.path("gold").path(field));
            String cand = shortValue(row.path("candidate").path(field));
            boolean drift = drifted.contains(field);
            html.append("<td class=\"").append(drift ? "drift" : "same").append("\">")
                    .append(drift ? HtmlSummary.esc(gold) + " &rarr; " + HtmlSummary.esc(cand) + HtmlSummary.esc(driftNote(row, field)) : HtmlSummary.esc(cand))
                    .append("</td>");
        }
        html.append("</tr>\n");
        for (JsonNode line : row.path("first_difference")) {
            html.append("<tr><td></td><td></td><td class=\"drift\" colspan=\"").append(fields.size()).append("\"><code>")
                    .append(HtmlSummary.esc(line.path("text").asText())).append("</code></td></tr>\n");
        }
    }

    /**
     * What the report says beside a drift, e.g. the fastest time and the widened bucket limits of {@code time_bucket}: what
     * the drift line carries past its two values. The values themselves may hold a parenthesis (an empty stream's hash
     * reads {@code (empty)}), so the note is what follows them, never the first parenthesis.
     */
    private static String driftNote(JsonNode row, String field) {
        String values = field + ": " + Sha256.shown(text(row.path("gold").path(field))) + " -> " + Sha256.shown(text(row.path("candidate").path(field)));
        for (JsonNode drift : row.path("drift")) {
            String text = drift.asText();
            if (text.startsWith(values)) {
                return text.substring(values.length());
            }
        }
        return "";
    }

    private static String text(JsonNode value) {
        return value.isNull() || value.isMissingNode() ? "null" : value.asText();
    }

    /** Full hashes are in the JSON report; twelve hex digits tell them apart on the page. */
    private static String shortValue(JsonNode value) {
        String text = text(value);
        return text.matches("[0-9a-f]{64}") ? text.substring(0, 12) + (text.equals(Sha256.EMPTY) ? " (empty)" : "") : text;
    }
}
