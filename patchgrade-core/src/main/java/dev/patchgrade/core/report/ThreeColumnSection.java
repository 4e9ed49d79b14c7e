package dev.patchgrade.core.report;

import com.fasterxml.jackson.databind.JsonNode;

/** A three-column grade on the page: its pattern counts, then each row's pattern and the three outputs, each excerpt centred on where the texts first part. */
public final class ThreeColumnSection extends PatternSection {
    public ThreeColumnSection() {
        super("rows", "reference", "candidate", "golden");
    }


    @Override
    void intro(StringBuilder html, JsonNode head) {
        html.append("<p>comparison: <code>").append(HtmlSummary.esc(head.path("comparison").asText())).append("</code></p>\n");
    }

    @Override
    String[] outputs(JsonNode row) {
        return new String[] {row.path("reference").path("stdout").asText().strip(), row.path("candidate").path("stdout").asText().strip(),
            row.path("golden").asText().strip()};
    }

    @Override
    int[] excerptsAt(String[] outputs) {
        int at = firstPart(outputs);
        return new int[] {at, at, at};
    }
}
