package dev.patchgrade.core.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Hand-built executions for the page tests: a JSON report's text, fed to the summary reporter as a goal feeds it, head and rows. */
final class SummaryRecords {
    private static final List<String> ROWS = List.of("cases", "rows", "files");

    private SummaryRecords() {}

    /** Each row is failing as its goal counts it: a {@code fail} verdict, or a pattern other than a passing one. */
    static ExecutionSummary write(Path reports, String name, SectionView view, String json) throws IOException {
        ObjectNode head = (ObjectNode) JsonReports.MAPPER.readTree(json);
        String arrayName = ROWS.stream().filter(head::has).findFirst().orElse(null);
        SummaryReporter reporter = new SummaryReporter(reports, name, view, arrayName);
        if (arrayName != null) {
            for (JsonNode row : head.remove(arrayName)) {
                reporter.add(failing(row), row);
            }
        }
        return reporter.finish(head);
    }

    private static boolean failing(JsonNode row) {
        String pattern = row.path("pattern").asText("");
        return "fail".equals(row.path("verdict").asText()) || !pattern.isEmpty() && !pattern.startsWith("pass");
    }
}
