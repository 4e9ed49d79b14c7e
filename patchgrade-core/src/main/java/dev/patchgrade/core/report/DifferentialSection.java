package dev.patchgrade.core.report;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A differential grade on the page: its seed first (with it, the grade is run again exactly), the pattern counts, then
 * each generated case's pattern, the input it differs on (the smallest, where it was shrunk) and both outputs on it.
 */
public final class DifferentialSection extends PatternSection {
    public DifferentialSection() {
        super("generated cases", "input", "reference", "candidate");
    }


    @Override
    void intro(StringBuilder html, JsonNode head) {
        html.append("<p>seed: <code class=\"seed\">").append(HtmlSummary.esc(head.path("seed").asText())).append("</code> (")
                .append(head.path("seed_given").asBoolean(false) ? "given" : "drawn for this build").append(") &mdash; ")
                .append(head.path("generated").asLong()).append(" case(s) generated, comparison: <code>")
                .append(HtmlSummary.esc(head.path("comparison").asText())).append("</code>, shrink: ").append(head.path("shrink").asBoolean(false) ? "on" : "off")
                .append("</p>\n");
    }

    @Override
    String[] outputs(JsonNode row) {
        JsonNode shrunk = row.path("shrunk");
        JsonNode shown = shrunk.isObject() ? shrunk : row;
        String input = input(shown);
        if (shrunk.isObject() && shrunk.path("smaller").asBoolean(false)) {
            input += " (shrunk from " + input(row) + ")";
        }
        return new String[] {input, side(shown.path("reference")), side(shown.path("candidate"))};
    }

    /** The input from its start; the outputs from where they part. */
    @Override
    int[] excerptsAt(String[] outputs) {
        int at = firstPart(outputs[1], outputs[2]);
        return new int[] {0, at, at};
    }

    /** The output, with the exit status where it is not 0 (a differing status is a difference too). */
    private static String side(JsonNode run) {
        String stdout = run.path("stdout").asText().strip();
        if (run.path("timed_out").asBoolean(false)) {
            return "(timed out) " + stdout;
        }
        if (!run.path("signal").isNull() && !run.path("signal").isMissingNode()) {
            return "(killed by " + run.path("signal").asText() + ") " + stdout;
        }
        int exit = run.path("exit").asInt(0);
        return exit == 0 ? stdout : "(exit " + exit + ") " + stdout;
    }

    private static String input(JsonNode node) {
        StringBuilder text = new StringBuilder("args ").append(node.path("args").toString());
        if (node.path("stdin").isTextual()) {
            text.append(", stdin ").append(node.path("stdin").toString());
        }
        return text.toString();
    }
}
