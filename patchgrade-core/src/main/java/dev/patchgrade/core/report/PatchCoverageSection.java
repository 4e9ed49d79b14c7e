package dev.patchgrade.core.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.Map;

/**
 * A patch-coverage grade on the page: what the patch was measured against and the share of its changed executable
 * lines the cases ran, as a bar; then each changed file's diff, each added line marked run (and by how many cases),
 * not run, or not executable (a comment, a declaration). Marked in words as well as colour, so the page reads
 * without its stylesheet.
 */
public final class PatchCoverageSection implements SectionView {
    @Override
    public String graded(JsonNode head, long rows) {
        return rows + " file(s), " + head.path("run_lines").asLong() + " of " + head.path("executable_lines").asLong() + " changed executable lines run";
    }

    @Override
    public void above(StringBuilder html, JsonNode head, long rows) {
        long executable = head.path("executable_lines").asLong();
        long run = head.path("run_lines").asLong();
        double minimum = head.path("minimum_percent").asDouble();
        html.append("<p>changes since <code>").append(HtmlSummary.esc(head.path("base").asText())).append("</code> (")
                .append(HtmlSummary.esc(head.path("base_object").asText())).append(") under <code>").append(HtmlSummary.esc(head.path("source_root").asText()))
                .append("</code>, run by ").append(head.path("cases").asLong()).append(" case(s) on <code>").append(HtmlSummary.esc(HtmlSummary.join(head.path("command"))))
                .append("</code>; minimumPercent ").append(HtmlSummary.esc(head.path("minimum_percent").asText())).append("</p>\n");
        if (executable > 0) {
            double share = run * 100.0 / executable;
            String label = run + " of " + executable + " changed executable lines run";
            html.append("<table class=\"bars\"><tr><td>changed lines run</td><td>")
                    .append(HtmlSummary.bar(share, share < minimum ? "bad" : "ok", minimum > 0 ? minimum : -1, label)).append("</td><td class=\"num\">")
                    .append(HtmlSummary.esc(label)).append("</td></tr></table>\n");
        }
    }

    @Override
    public String tableStart(JsonNode head) {
        return "<table class=\"diff\">\n";
    }

    @Override
    public void row(StringBuilder html, JsonNode row) {
        String verdict = row.path("verdict").asText();
        String share = row.path("run_lines").size() + " of " + row.path("executable_lines").size() + " changed executable lines run";
        String never = row.path("not_run_ranges").asText();
        html.append("<tr class=\"file\"><td colspan=\"3\"><b>").append(HtmlSummary.esc(row.path("file").asText())).append("</b> <span class=\"badge ")
                .append(verdict.equals("fail") ? "bad" : verdict.equals("pass") ? "ok" : "err").append("\">").append(HtmlSummary.esc(verdict))
                .append("</span> ").append(verdict.equals("not_measured") ? "gcov knows no line of it in the coverage build" : HtmlSummary.esc(share)
                        + (never.isEmpty() ? "" : "; never run: " + HtmlSummary.esc(never))).append("</td></tr>\n");
        Map<Integer, JsonNode> lines = new HashMap<>();
        row.path("lines").forEach(line -> lines.put(line.path("line").asInt(), line));
        for (JsonNode hunk : row.path("hunks")) {
            html.append("<tr class=\"hunk\"><td></td><td></td><td>").append(HtmlSummary.esc(hunk.path("header").asText())).append("</td></tr>\n");
            for (JsonNode line : hunk.path("lines")) {
                diffLine(html, line, lines.get(line.path("line").asInt()));
            }
        }
        if (row.path("hunks_cut").asBoolean(false)) {
            html.append("<tr class=\"hunk\"><td></td><td></td><td>(the rest of this file's diff is not shown; its lines are all in the JSON report's "
                    + "line detail)</td></tr>\n");
        }
    }

    private static void diffLine(StringBuilder html, JsonNode line, JsonNode detail) {
        String kind = line.path("kind").asText();
        String text = HtmlSummary.esc(line.path("text").asText());
        if (kind.equals("-")) {
            html.append("<tr class=\"removed\"><td class=\"num\"></td><td class=\"mark\">-</td><td>").append(text).append("</td></tr>\n");
            return;
        }
        String status = line.path("status").asText("");
        String mark = switch (status) {
            case "run" -> "run" + (detail == null ? "" : " x" + detail.path("count").asLong() + ", " + detail.path("cases").asLong() + " case(s)");
            case "not_run" -> "NOT RUN";
            default -> kind.equals("+") ? "+" : "";
        };
        String css = switch (status) {
            case "run" -> "run";
            case "not_run" -> "notrun";
            default -> "plain";
        };
        html.append("<tr class=\"").append(css).append("\"><td class=\"num\">").append(line.path("line").asInt()).append("</td><td class=\"mark\">")
                .append(HtmlSummary.esc(mark)).append("</td><td>").append(text).append("</td></tr>\n");
    }
}
