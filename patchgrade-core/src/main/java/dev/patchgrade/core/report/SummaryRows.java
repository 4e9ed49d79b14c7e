package dev.patchgrade.core.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** How each goal's rows look on the summary page, one row at a time as the report is read. */
final class SummaryRows {
    private SummaryRows() {}

    /** How one goal's rows look on the page; chosen by the report's {@code goal}, never guessed from its keys. */
    interface RowView {
        String start(JsonNode head);

        boolean failing(JsonNode row);

        void row(StringBuilder html, JsonNode row);
    }

    static RowView rowView(String goal) {
        return switch (goal) {
            case "digest" -> new DigestRows();
            case "three-column" -> new ThreeColumnRows();
            case "patch-coverage" -> new PatchCoverageRows();
            case "differential" -> new DifferentialRows();
            default -> null;
        };
    }

    /** A grid of the tuple's fields per case, the drifting ones marked; the columns are the gold's fields, in its order. */
    static final class DigestRows implements RowView {
        private List<String> fields;

        @Override
        public String start(JsonNode head) {
            StringBuilder html = new StringBuilder("<table class=\"grid\"><tr><th>case</th><th>verdict</th>");
            fields().forEach(field -> html.append("<th>").append(HtmlSummary.esc(field)).append("</th>"));
            return html.append("</tr>\n").toString();
        }

        private List<String> fields() {
            return fields == null ? List.of() : fields;
        }

        @Override
        public boolean failing(JsonNode row) {
            return "fail".equals(row.path("verdict").asText());
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
            boolean failed = failing(row);
            List<String> drifted = new ArrayList<>();
            row.path("drift_fields").forEach(field -> drifted.add(field.asText()));
            html.append("<tr><td>").append(HtmlSummary.esc(row.path("case").asText())).append("</td><td class=\"").append(failed ? "bad" : "ok").append("\">")
                    .append(failed ? "FAIL" : "pass").append("</td>");
            for (String field : fields) {
                String gold = shortValue(row.path("gold").path(field));
                String cand = shortValue(row.path("candidate").path(field));
                boolean drift = drifted.contains(field);
                html.append("<td class=\"").append(drift ? "drift" : "same").append("\">")
                        .append(drift ? HtmlSummary.esc(gold) + " &rarr; " + HtmlSummary.esc(cand) + HtmlSummary.esc(driftNote(row, field)) : HtmlSummary.esc(cand)).append("</td>");
            }
            html.append("</tr>\n");
            for (JsonNode line : row.path("first_difference")) {
                html.append("<tr><td></td><td></td><td class=\"drift\" colspan=\"").append(fields.size()).append("\"><code>")
                        .append(HtmlSummary.esc(line.path("text").asText())).append("</code></td></tr>\n");
            }
        }
    }

    /** What the report says beside a drift, e.g. the fastest time and the widened bucket limits of {@code time_bucket}. */
    private static String driftNote(JsonNode row, String field) {
        for (JsonNode drift : row.path("drift")) {
            String text = drift.asText();
            int note = text.indexOf(" (");
            if (text.startsWith(field + ": ") && note > 0) {
                return text.substring(note);
            }
        }
        return "";
    }

    /** Each row's pattern and the three outputs, each excerpt centred on where the texts first part. */
    static final class ThreeColumnRows implements RowView {
        @Override
        public String start(JsonNode head) {
            return "<table class=\"grid\"><tr><th>case</th><th>pattern</th><th>reference</th><th>candidate</th><th>golden</th></tr>\n";
        }

        @Override
        public boolean failing(JsonNode row) {
            return !"pass_all_agree".equals(row.path("pattern").asText());
        }

        @Override
        public void row(StringBuilder html, JsonNode row) {
            String pattern = row.path("pattern").asText();
            String reference = row.path("reference").path("stdout").asText().strip();
            String candidate = row.path("candidate").path("stdout").asText().strip();
            String golden = row.path("golden").asText().strip();
            int at = Math.min(Math.min(index(reference, candidate), index(candidate, golden)), index(reference, golden));
            at = at == Integer.MAX_VALUE ? 0 : at;
            html.append("<tr><td>").append(HtmlSummary.esc(row.path("id").asText())).append("</td><td class=\"").append(HtmlSummary.cssClass(pattern)).append("\">")
                    .append(HtmlSummary.esc(pattern)).append("</td><td><code>").append(HtmlSummary.esc(FirstDifference.excerpt(reference, at, 200)))
                    .append("</code></td><td><code>").append(HtmlSummary.esc(FirstDifference.excerpt(candidate, at, 200)))
                    .append("</code></td><td><code>").append(HtmlSummary.esc(FirstDifference.excerpt(golden, at, 200))).append("</code></td></tr>\n");
        }
    }

    /**
     * Each changed file's diff, each added line marked: run (and by how many cases), not run, or not executable
     * (a comment, a declaration). Marked in words as well as colour, so the page reads without its stylesheet.
     */
    static final class PatchCoverageRows implements RowView {
        @Override
        public String start(JsonNode head) {
            return "<table class=\"diff\">\n";
        }

        @Override
        public boolean failing(JsonNode row) {
            return "fail".equals(row.path("verdict").asText());
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
            java.util.Map<Integer, JsonNode> lines = new java.util.HashMap<>();
            row.path("lines").forEach(line -> lines.put(line.path("line").asInt(), line));
            for (JsonNode hunk : row.path("hunks")) {
                html.append("<tr class=\"hunk\"><td></td><td></td><td>").append(HtmlSummary.esc(hunk.path("header").asText())).append("</td></tr>\n");
                for (JsonNode line : hunk.path("lines")) {
                    String kind = line.path("kind").asText();
                    String text = HtmlSummary.esc(line.path("text").asText());
                    if (kind.equals("-")) {
                        html.append("<tr class=\"removed\"><td class=\"num\"></td><td class=\"mark\">-</td><td>").append(text).append("</td></tr>\n");
                        continue;
                    }
                    String status = line.path("status").asText("");
                    JsonNode detail = lines.get(line.path("line").asInt());
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
            if (row.path("hunks_cut").asBoolean(false)) {
                html.append("<tr class=\"hunk\"><td></td><td></td><td>(the rest of this file's diff is not shown; its lines are all in the JSON report's "
                        + "line detail)</td></tr>\n");
            }
        }
    }

    private static String shortValue(JsonNode value) {
        if (value.isNull() || value.isMissingNode()) {
            return "null";
        }
        String text = value.asText();
        return text.matches("[0-9a-f]{64}") ? text.substring(0, 12) + (text.equals(EMPTY_SHA256) ? " (empty)" : "") : text;
    }

    private static final String EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    /** Where two texts first differ, or {@code Integer.MAX_VALUE} where they are equal. */
    private static int index(String a, String b) {
        int at = FirstDifference.firstIndex(a, b);
        return at < 0 ? Integer.MAX_VALUE : at;
    }

    /** Each generated case's pattern, the input it differs on (the smallest, where it was shrunk) and both outputs on it. */
    static final class DifferentialRows implements RowView {
        @Override
        public String start(JsonNode head) {
            return "<table class=\"grid\"><tr><th>case</th><th>pattern</th><th>input</th><th>reference</th><th>candidate</th></tr>\n";
        }

        @Override
        public boolean failing(JsonNode row) {
            return !"pass_agree".equals(row.path("pattern").asText());
        }

        @Override
        public void row(StringBuilder html, JsonNode row) {
            String pattern = row.path("pattern").asText();
            JsonNode shrunk = row.path("shrunk");
            JsonNode shown = shrunk.isObject() ? shrunk : row;
            String reference = side(shown.path("reference"));
            String candidate = side(shown.path("candidate"));
            int at = index(reference, candidate);
            at = at == Integer.MAX_VALUE ? 0 : at;
            String input = input(shown);
            if (shrunk.isObject() && shrunk.path("smaller").asBoolean(false)) {
                input += " (shrunk from " + input(row) + ")";
            }
            html.append("<tr><td>").append(HtmlSummary.esc(row.path("id").asText())).append("</td><td class=\"").append(HtmlSummary.cssClass(pattern))
                    .append("\">").append(HtmlSummary.esc(pattern)).append("</td><td><code>").append(HtmlSummary.esc(FirstDifference.excerpt(input, 0, 200)))
                    .append("</code></td><td><code>").append(HtmlSummary.esc(FirstDifference.excerpt(reference, at, 200)))
                    .append("</code></td><td><code>").append(HtmlSummary.esc(FirstDifference.excerpt(candidate, at, 200))).append("</code></td></tr>\n");
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
}
