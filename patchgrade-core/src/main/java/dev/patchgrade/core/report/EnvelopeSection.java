package dev.patchgrade.core.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** An envelope grade on the page: its command and reasons, and a bar per figure, measured against its ceiling. */
public final class EnvelopeSection implements SectionView {
    @Override
    public String graded(JsonNode head, long rows) {
        return head.path("runs").size() + " run(s)";
    }

    /** An envelope lists no rows: its reasons say why it failed. */
    @Override
    public String detail(JsonNode head, long failing, String failingOfRows) {
        if (failing == 0) {
            return "within every ceiling";
        }
        List<String> reasons = new ArrayList<>();
        head.path("reasons").forEach(reason -> reasons.add(reason.asText()));
        return "rejected for " + String.join(", ", reasons);
    }

    @Override
    public void above(StringBuilder html, JsonNode head, long rows) {
        html.append("<p>command: <code>").append(HtmlSummary.esc(HtmlSummary.join(head.path("command")))).append("</code>");
        if (head.path("reasons").size() > 0) {
            html.append(" &mdash; reasons: <b>").append(HtmlSummary.esc(HtmlSummary.join(head.path("reasons")))).append("</b>");
        }
        html.append("</p>\n<table class=\"bars\"><tr><th>figure</th><th>measured against ceiling</th><th>measured</th><th>ceiling</th><th>headroom</th></tr>\n");
        boolean timedOut = head.path("measured").path("timed_out").asBoolean(false);
        for (JsonNode figure : head.path("figures")) {
            long measured = figure.path("measured").asLong();
            long ceiling = figure.path("ceiling").asLong();
            double scale = Math.max(ceiling, measured);
            double measuredPct = scale == 0 ? 0 : measured * 100.0 / scale;
            double ceilingPct = scale == 0 ? 100 : ceiling * 100.0 / scale;
            boolean over = !timedOut && measured > ceiling;
            String headroom = timedOut ? "not graded (timed out)" : ceiling == 0 ? "-" : over
                    ? String.format(Locale.ROOT, "over by %.0f%%", (measured - ceiling) * 100.0 / ceiling)
                    : String.format(Locale.ROOT, "%.0f%% left", (ceiling - measured) * 100.0 / ceiling);
            html.append("<tr><td>").append(HtmlSummary.esc(figure.path("ceiling_key").asText())).append("</td><td>")
                    .append(HtmlSummary.bar(measuredPct, over ? "bad" : "ok", ceilingPct, figure.path("ceiling_key").asText() + ": " + headroom))
                    .append("</td><td class=\"num\">")
                    .append(String.format(Locale.ROOT, "%,d", measured)).append("</td><td class=\"num\">").append(String.format(Locale.ROOT, "%,d", ceiling))
                    .append("</td><td class=\"num ").append(over ? "bad" : "ok").append("\">").append(headroom).append("</td></tr>\n");
        }
        html.append("</table>\n");
    }
}
