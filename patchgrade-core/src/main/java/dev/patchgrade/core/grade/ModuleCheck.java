package dev.patchgrade.core.grade;

import dev.patchgrade.core.ErrorName;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.report.JsonReports;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The {@code check} goal without Maven: reads the JSON report of every grading execution of a module
 * and says which of them failed or stopped with an error, so the build can fail once, at the end,
 * with all of them (the grading executions ran with {@code testFailureIgnore}).
 */
public final class ModuleCheck {
    private ModuleCheck() {}

    /**
     * One goal execution as its JSON report tells it.
     *
     * @param name {@code <goal>.<executionId>}
     * @param outcome {@code pass}, {@code accept}, or the worst failure type or error name
     * @param detail one line: how many graded items failed, or the error's message
     */
    public record Execution(String name, Status status, String outcome, String detail) {}

    public enum Status { PASSED, FAILED, ERROR }

    /** What the reports said: the executions read, oldest report first, and the reports passed over as older than this build. */
    public record Result(List<Execution> executions, List<Path> stale) {
        public List<Execution> with(Status status) {
            return executions.stream().filter(e -> e.status() == status).toList();
        }

        /**
         * What {@code check} says when an execution did not pass: the counts, where the page is, then one
         * line per failing or erroneous execution. {@code null} when every execution passed.
         */
        public String failureSummary(String module, Path reportsDirectory) {
            int failed = with(Status.FAILED).size();
            int errors = with(Status.ERROR).size();
            if (failed == 0 && errors == 0) {
                return null;
            }
            StringBuilder message = new StringBuilder("patchgrade check: " + failed + " of " + executions.size() + " grading execution(s) of "
                    + module + " failed" + (errors == 0 ? "" : ", " + errors + " stopped with an error") + "; see "
                    + reportsDirectory.resolve("index.html"));
            for (Execution execution : executions) {
                if (execution.status() != Status.PASSED) {
                    message.append(System.lineSeparator()).append("  ").append(execution.name()).append(": ")
                            .append(execution.status() == Status.ERROR ? "error " : "").append(execution.outcome())
                            .append(" (").append(execution.detail()).append(')');
                }
            }
            return message.toString();
        }
    }

    /**
     * @param since reports last written before this instant belong to an earlier build and are passed over
     *     ({@code null} reads them all)
     */
    public static Result read(Path reportsDirectory, Instant since) {
        List<Execution> executions = new ArrayList<>();
        List<Path> stale = new ArrayList<>();
        if (!Files.isDirectory(reportsDirectory)) {
            return new Result(executions, stale);
        }
        List<Path> files;
        try (Stream<Path> listing = Files.list(reportsDirectory)) {
            files = listing.filter(p -> p.getFileName().toString().startsWith("patchgrade.") && p.getFileName().toString().endsWith(".json"))
                    .sorted().toList();
        } catch (IOException e) {
            throw new PatchgradeException(ErrorName.UNREADABLE_REPORT, "cannot list the reports in " + reportsDirectory + ": " + e.getMessage(), e);
        }
        for (Path file : files) {
            String name = file.getFileName().toString();
            try {
                if (since != null && Files.getLastModifiedTime(file).toInstant().isBefore(since)) {
                    stale.add(file);
                    continue;
                }
                executions.add(readOne(file, name.substring("patchgrade.".length(), name.length() - ".json".length())));
            } catch (IOException e) {
                String problem = e.getMessage();
                throw new PatchgradeException(ErrorName.UNREADABLE_REPORT, shown -> file + " cannot be read as a patchgrade JSON report ("
                        + problem + "); delete it, or run " + shown.cleanBuild(), e);
            }
        }
        return new Result(executions, stale);
    }

    /**
     * One report read as a stream: its head kept, its rows only counted, so a report of any number of cases
     * is read in constant memory.
     */
    static Execution readOne(Path file, String name) throws IOException {
        try (JsonParser parser = JsonReports.MAPPER.getFactory().createParser(file.toFile())) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not a JSON object");
            }
            ObjectNode head = JsonReports.MAPPER.createObjectNode();
            Rows rows = null;
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                if (parser.nextToken() == JsonToken.START_ARRAY && (field.equals("cases") || field.equals("rows") || field.equals("files"))) {
                    rows = new Rows(head.path("goal").asText(""), field);
                    while (parser.nextToken() != JsonToken.END_ARRAY) {
                        rows.count(JsonReports.MAPPER.readTree(parser));
                    }
                } else {
                    head.set(field, JsonReports.MAPPER.readTree(parser));
                }
            }
            return execution(name, head, rows);
        }
    }

    /**
     * The rows of a digest (cases, each with a verdict), a three-column grade (rows, each with a pattern), a
     * differential grade (generated cases, each with a pattern) or a patch coverage (files, each with a verdict), counted.
     */
    private static final class Rows {
        private final boolean differential;
        private final boolean patterns;
        private final String noun;
        private long total;
        private long failing;

        Rows(String goal, String field) {
            this.differential = goal.equals("differential");
            this.patterns = field.equals("rows") || differential;
            this.noun = switch (field) {
                case "rows" -> " row(s)";
                case "files" -> " file(s)";
                default -> " case(s)";
            };
        }

        void count(JsonNode item) {
            total++;
            boolean passed = differential ? item.path("pattern").asText().equals("pass_agree")
                    : patterns ? item.path("pattern").asText().equals("pass_all_agree") : !item.path("verdict").asText().equals("fail");
            failing += passed ? 0 : 1;
        }
    }

    private static Execution execution(String name, JsonNode report, Rows rows) {
        if (report.has("error")) {
            String type = report.path("error").path("type").asText("error");
            return new Execution(name, Status.ERROR, type, report.path("error").path("message").asText());
        }
        String verdict = report.path("verdict").asText();
        boolean failed = verdict.equals("fail") || verdict.equals("reject");
        // The report says its goal; reports without one (hand-made, older) are told apart by their rows.
        String goal = report.path("goal").asText(rows == null ? "envelope" : "");
        if (goal.equals("envelope") || rows == null) {
            String worst = failed && report.path("reasons").size() > 0 ? report.path("reasons").path(0).asText() : verdict;
            List<String> reasons = new ArrayList<>();
            report.path("reasons").forEach(r -> reasons.add(r.asText()));
            return new Execution(name, failed ? Status.FAILED : Status.PASSED, worst,
                    failed ? "rejected for " + String.join(", ", reasons) : "within every ceiling");
        }
        return new Execution(name, failed ? Status.FAILED : Status.PASSED, report.path("worst").asText(verdict),
                rows.failing + " of " + rows.total + rows.noun + " failing");
    }
}
