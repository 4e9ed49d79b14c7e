package dev.patchgrade.core.report;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code index.html}: one page (no script, no network) over every goal execution whose JSON report
 * lies in the reports directory, rebuilt after each execution so the last one of a module build
 * covers them all. Each report is read as a stream and drawn by its {@code goal}. Envelopes get a bar per figure (measured against its ceiling), digests a grid of
 * the drifting fields per case, three-column grades the pattern counts, differential grades their seed, the pattern
 * counts and each differing case's smallest input.
 *
 * <p>It keeps its look under Jenkins' default Content Security Policy ({@code sandbox; default-src
 * 'none'; img-src 'self'; style-src 'self';}), which blocks inline {@code <style>} and {@code style=}:
 * the styles live in {@code patchgrade.css} beside the page, and the bars are SVG shapes whose size
 * and colour are presentation attributes, which the policy does not govern.
 */
public final class HtmlSummary {
    public static final String FILE = "index.html";
    public static final String STYLESHEET = "patchgrade.css";
    private static final int BAR_WIDTH = 320;
    private static final int BAR_HEIGHT = 14;

    private HtmlSummary() {}

    /** @param module the module's name for the page title, or {@code null} */
    public static Path refresh(Path reportsDirectory, String module) {
        List<Section> sections = new ArrayList<>();
        try (Stream<Path> files = Files.list(reportsDirectory)) {
            for (Path file : files.sorted().toList()) {
                String name = file.getFileName().toString();
                if (name.startsWith("patchgrade.") && name.endsWith(".json")) {
                    try {
                        sections.add(readOnce(file, name.substring("patchgrade.".length(), name.length() - ".json".length())));
                    } catch (IOException e) {
                        // a report being replaced right now is picked up by the next refresh
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + reportsDirectory, e);
        }
        Path index = reportsDirectory.resolve(FILE);
        try {
            writeStylesheet(reportsDirectory);
            AtomicFiles.write(index, render(module, sections).getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + index, e);
        }
        return index;
    }

    /**
     * One execution's part of the page. {@code head} is the report without its rows; the rows were rendered
     * into {@code rowsHtml} as they were read, at most {@link #ROWS_SHOWN} of them.
     */
    record Section(String name, JsonNode head, long rows, long rowsShown, String rowsHtml) {
        String goal() {
            return head.path("goal").asText("");
        }
    }

    /** Failing rows first: every failing row up to this many, then the first passing rows while room is left. */
    static final int ROWS_SHOWN = 500;

    /**
     * Sections of reports read before, by file: the page is rebuilt after every execution of a build, and only the
     * report that execution wrote is new to it. A report is replaced by a rename, so a file with the inode, size and
     * modification time it was read with is the same report; where the file system keeps whole seconds only, a
     * rewrite within the second could look the same, so such a report is always read. A section holds up to
     * {@link #ROWS_SHOWN} rows of HTML (a few hundred KB): a few executions' worth are kept, not a reactor's.
     */
    private static final Map<Path, ReadBefore> READ = java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Path, ReadBefore> eldest) {
            return size() > 16;
        }
    });

    private record ReadBefore(Object fileKey, long size, long modifiedNanos, Section section) {}

    /** {@link #read}, or the section read from this very file before. */
    static Section readOnce(Path file, String name) throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
        long modified = attributes.lastModifiedTime().to(TimeUnit.NANOSECONDS);
        Path key = file.toAbsolutePath();
        ReadBefore before = READ.get(key);
        if (before != null && before.fileKey().equals(attributes.fileKey()) && before.size() == attributes.size()
                && before.modifiedNanos() == modified) {
            return before.section();
        }
        // Read after the look at its attributes: a report replaced in between is read again next time.
        Section section = read(file, name);
        if (attributes.fileKey() != null && modified % 1_000_000_000L != 0) {
            READ.put(key, new ReadBefore(attributes.fileKey(), attributes.size(), modified, section));
        }
        return section;
    }

    /** Reads a report as a stream: the rows one at a time, so a report of any size is read in constant memory. */
    static Section read(Path file, String name) throws IOException {
        try (JsonParser parser = JsonReports.MAPPER.getFactory().createParser(file.toFile())) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException(file + " is not a JSON object");
            }
            ObjectNode head = JsonReports.MAPPER.createObjectNode();
            StringBuilder rowsHtml = new StringBuilder();
            long rows = 0;
            long shown = 0;
            List<String> passing = new ArrayList<>();
            SummaryRows.RowView view = null;
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if (value == JsonToken.START_ARRAY && ROWS.contains(field)) {
                    view = SummaryRows.rowView(head.path("goal").asText(""));
                    while (parser.nextToken() != JsonToken.END_ARRAY) {
                        JsonNode row = JsonReports.MAPPER.readTree(parser);
                        rows++;
                        if (view == null) {
                            continue;
                        }
                        if (view.failing(row)) {
                            if (shown < ROWS_SHOWN) {
                                view.row(rowsHtml, row);
                                shown++;
                            }
                        } else if (passing.size() < ROWS_SHOWN / 10) {
                            StringBuilder one = new StringBuilder();
                            view.row(one, row);
                            passing.add(one.toString());
                        }
                    }
                } else {
                    head.set(field, JsonReports.MAPPER.readTree(parser));
                }
            }
            // Failing rows first, in case order, then the first passing rows while room is left.
            for (String one : passing) {
                if (shown >= ROWS_SHOWN) {
                    break;
                }
                rowsHtml.append(one);
                shown++;
            }
            if (view != null) {
                rowsHtml.insert(0, view.start(head));
                rowsHtml.append("</table>\n");
            }
            return new Section(name, head, rows, shown, rowsHtml.toString());
        }
    }

    private static final java.util.Set<String> ROWS = java.util.Set.of("cases", "rows", "files");

    static void writeStylesheet(Path directory) throws IOException {
        Path css = directory.resolve(STYLESHEET);
        byte[] bytes = CSS.getBytes(StandardCharsets.UTF_8);
        if (!Files.isRegularFile(css) || !java.util.Arrays.equals(Files.readAllBytes(css), bytes)) {
            AtomicFiles.write(css, bytes);
        }
    }

    /** The head of every patchgrade page: the title and the stylesheet beside it. */
    static String head(String title) {
        return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>" + esc(title) + "</title>\n"
                + "<link rel=\"stylesheet\" href=\"" + STYLESHEET + "\"></head>\n<body>\n<h1>" + esc(title) + "</h1>\n";
    }

    static String render(String module, List<Section> sections) {
        StringBuilder html = new StringBuilder(16_384);
        html.append(head(module == null || module.isBlank() ? "patchgrade summary" : "patchgrade: " + module));
        html.append("<table class=\"overview\"><tr><th>goal execution</th><th>outcome</th><th>graded</th></tr>\n");
        for (Section section : sections) {
            String outcome = outcome(section.head());
            html.append("<tr><td><a href=\"#").append(esc(section.name())).append("\">").append(esc(section.name())).append("</a></td><td class=\"")
                    .append(cssClass(outcome)).append("\">").append(esc(outcome)).append("</td><td>").append(graded(section)).append("</td></tr>\n");
        }
        html.append("</table>\n");
        for (Section section : sections) {
            JsonNode report = section.head();
            String outcome = outcome(report);
            html.append("<section id=\"").append(esc(section.name())).append("\"><h2>").append(esc(section.name()))
                    .append(" <span class=\"badge ").append(cssClass(outcome)).append("\">").append(esc(outcome)).append("</span></h2>\n");
            if (report.has("error")) {
                html.append("<p class=\"error\"><b>").append(esc(report.path("error").path("type").asText())).append("</b>: ")
                        .append(esc(report.path("error").path("message").asText())).append("</p>\n");
            } else {
                switch (section.goal()) {
                    case "envelope" -> envelope(html, report);
                    case "three-column" -> threeColumnCounts(html, report, section.rows());
                    case "patch-coverage" -> patchCoverage(html, report);
                    case "differential" -> differentialCounts(html, report, section.rows());
                    default -> { }
                }
                html.append(section.rowsHtml());
                if (section.rowsShown() < section.rows()) {
                    html.append("<p>").append(section.rows() - section.rowsShown()).append(" more row(s) not shown here; every row is in ")
                            .append(esc("patchgrade." + section.name() + ".json")).append("</p>\n");
                }
            }
            html.append("</section>\n");
        }
        html.append("<footer>Written by patchgrade. Full reports: TEST-*.xml (JUnit) and patchgrade.*.json beside this page.</footer>\n</body></html>\n");
        return html.toString();
    }

    static String outcome(JsonNode report) {
        if (report.has("error")) {
            return "error: " + report.path("error").path("type").asText();
        }
        if (report.has("worst")) {
            return report.path("worst").asText();
        }
        return report.path("verdict").asText("unknown");
    }

    static String cssClass(String outcome) {
        return switch (outcome) {
            case "accept", "pass", "pass_all_agree", "pass_agree" -> "ok";
            default -> outcome.startsWith("error") ? "err" : "bad";
        };
    }

    static String graded(Section section) {
        return switch (section.goal()) {
            case "three-column" -> section.rows() + " rows";
            case "digest" -> section.rows() + " cases";
            case "differential" -> section.rows() + " generated cases";
            case "envelope" -> section.head().path("runs").size() + " run(s)";
            case "patch-coverage" -> section.rows() + " file(s), " + section.head().path("run_lines").asLong() + " of "
                    + section.head().path("executable_lines").asLong() + " changed executable lines run";
            default -> "";
        };
    }

    private static void envelope(StringBuilder html, JsonNode report) {
        html.append("<p>command: <code>").append(esc(join(report.path("command")))).append("</code>");
        if (report.path("reasons").size() > 0) {
            html.append(" &mdash; reasons: <b>").append(esc(join(report.path("reasons")))).append("</b>");
        }
        html.append("</p>\n<table class=\"bars\"><tr><th>figure</th><th>measured against ceiling</th><th>measured</th><th>ceiling</th><th>headroom</th></tr>\n");
        boolean timedOut = report.path("measured").path("timed_out").asBoolean(false);
        for (JsonNode figure : report.path("figures")) {
            long measured = figure.path("measured").asLong();
            long ceiling = figure.path("ceiling").asLong();
            double scale = Math.max(ceiling, measured);
            double measuredPct = scale == 0 ? 0 : measured * 100.0 / scale;
            double ceilingPct = scale == 0 ? 100 : ceiling * 100.0 / scale;
            boolean over = !timedOut && measured > ceiling;
            String headroom = timedOut ? "not graded (timed out)" : ceiling == 0 ? "-" : over
                    ? String.format(Locale.ROOT, "over by %.0f%%", (measured - ceiling) * 100.0 / ceiling)
                    : String.format(Locale.ROOT, "%.0f%% left", (ceiling - measured) * 100.0 / ceiling);
            html.append("<tr><td>").append(esc(figure.path("ceiling_key").asText())).append("</td><td>")
                    .append(bar(measuredPct, over ? "bad" : "ok", ceilingPct, figure.path("ceiling_key").asText() + ": " + headroom))
                    .append("</td><td class=\"num\">")
                    .append(String.format(Locale.ROOT, "%,d", measured)).append("</td><td class=\"num\">").append(String.format(Locale.ROOT, "%,d", ceiling))
                    .append("</td><td class=\"num ").append(over ? "bad" : "ok").append("\">").append(headroom).append("</td></tr>\n");
        }
        html.append("</table>\n");
    }

    private static void threeColumnCounts(StringBuilder html, JsonNode report, long rows) {
        html.append("<p>comparison: <code>").append(esc(report.path("comparison").asText())).append("</code></p>\n");
        patternCounts(html, report, rows);
    }

    /** The seed first: with it, the grade is run again exactly. */
    private static void differentialCounts(StringBuilder html, JsonNode report, long rows) {
        html.append("<p>seed: <code class=\"seed\">").append(esc(report.path("seed").asText())).append("</code> (")
                .append(report.path("seed_given").asBoolean(false) ? "given" : "drawn for this build").append(") &mdash; ")
                .append(report.path("generated").asLong()).append(" case(s) generated, comparison: <code>")
                .append(esc(report.path("comparison").asText())).append("</code>, shrink: ").append(report.path("shrink").asBoolean(false) ? "on" : "off")
                .append("</p>\n");
        patternCounts(html, report, rows);
    }

    /** A bar per pattern, its share of the rows. */
    private static void patternCounts(StringBuilder html, JsonNode report, long rows) {
        html.append("<table class=\"bars\">");
        long total = Math.max(1, rows);
        Iterator<Map.Entry<String, JsonNode>> counts = report.path("counts").fields();
        while (counts.hasNext()) {
            Map.Entry<String, JsonNode> entry = counts.next();
            long n = entry.getValue().asLong();
            html.append("<tr><td>").append(esc(entry.getKey())).append("</td><td>")
                    .append(bar(n * 100.0 / total, cssClass(entry.getKey()), -1, entry.getKey() + ": " + n + " of " + total))
                    .append("</td><td class=\"num\">").append(n).append("</td></tr>\n");
        }
        html.append("</table>\n");
    }

    /** What the patch was measured against, and the share of its changed executable lines the cases ran, as a bar. */
    private static void patchCoverage(StringBuilder html, JsonNode report) {
        long executable = report.path("executable_lines").asLong();
        long run = report.path("run_lines").asLong();
        double minimum = report.path("minimum_percent").asDouble();
        html.append("<p>changes since <code>").append(esc(report.path("base").asText())).append("</code> (")
                .append(esc(report.path("base_object").asText())).append(") under <code>").append(esc(report.path("source_root").asText()))
                .append("</code>, run by ").append(report.path("cases").asLong()).append(" case(s) on <code>").append(esc(join(report.path("command"))))
                .append("</code>; minimumPercent ").append(esc(report.path("minimum_percent").asText())).append("</p>\n");
        if (executable > 0) {
            double share = run * 100.0 / executable;
            String label = run + " of " + executable + " changed executable lines run";
            html.append("<table class=\"bars\"><tr><td>changed lines run</td><td>")
                    .append(bar(share, share < minimum ? "bad" : "ok", minimum > 0 ? minimum : -1, label)).append("</td><td class=\"num\">")
                    .append(esc(label)).append("</td></tr></table>\n");
        }
    }

    private static String join(JsonNode array) {
        List<String> parts = new ArrayList<>();
        array.forEach(part -> parts.add(part.asText()));
        return String.join(" ", parts);
    }

    /** Colours of the bars, as SVG fill attributes: the page's policy may block every style, never these. */
    private static final Map<String, String> FILL = Map.of("ok", "#4caf50", "bad", "#e53935", "err", "#fb8c00");

    /**
     * A bar as inline SVG: a track, a fill of {@code percent} of its width, and a ceiling mark at
     * {@code markPercent} (none when negative). Sizes and colours are attributes, not styles.
     */
    static String bar(double percent, String kind, double markPercent, String label) {
        StringBuilder svg = new StringBuilder(320);
        svg.append("<svg class=\"bar\" width=\"").append(BAR_WIDTH).append("\" height=\"").append(BAR_HEIGHT + 6)
                .append("\" viewBox=\"0 0 ").append(BAR_WIDTH).append(' ').append(BAR_HEIGHT + 6).append("\" role=\"img\" aria-label=\"")
                .append(esc(label)).append("\"><title>").append(esc(label)).append("</title>")
                .append("<rect x=\"0\" y=\"3\" width=\"").append(BAR_WIDTH).append("\" height=\"").append(BAR_HEIGHT).append("\" fill=\"#eeeeee\"/>")
                .append("<rect class=\"fill ").append(kind).append("\" x=\"0\" y=\"3\" width=\"").append(px(percent)).append("\" height=\"")
                .append(BAR_HEIGHT).append("\" fill=\"").append(FILL.getOrDefault(kind, "#e53935")).append("\"/>");
        if (markPercent >= 0) {
            svg.append("<rect class=\"limit\" x=\"").append(px(Math.min(markPercent, 99.4))).append("\" y=\"0\" width=\"2\" height=\"")
                    .append(BAR_HEIGHT + 6).append("\" fill=\"#222222\"/>");
        }
        return svg.append("</svg>").toString();
    }

    private static String px(double percent) {
        return String.format(Locale.ROOT, "%.1f", Math.max(0, Math.min(100, percent)) * BAR_WIDTH / 100);
    }

    static String esc(String text) {
        return XmlText.clean(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static final String CSS = """
            body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
            h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
            table { border-collapse: collapse; margin: .5em 0; }
            th, td { border: 1px solid #ddd; padding: .25em .6em; text-align: left; vertical-align: top; }
            th { background: #f4f4f4; }
            td.num { text-align: right; font-variant-numeric: tabular-nums; }
            .ok { color: #176f2c; } .bad { color: #b3261e; font-weight: 600; } .err { color: #8a4b00; font-weight: 600; }
            .badge { font-size: .8em; border: 1px solid currentColor; border-radius: 3px; padding: 0 .4em; }
            svg.bar { display: block; }
            td.drift { background: #fde7e7; color: #b3261e; } td.same { color: #666; }
            code { font-family: ui-monospace, monospace; white-space: pre-wrap; }
            p.error { background: #fff4e5; padding: .6em; border-left: 4px solid #fb8c00; }
            footer { margin-top: 2em; color: #777; font-size: .85em; }
            table.diff td { font-family: ui-monospace, monospace; white-space: pre-wrap; border: none; padding: 0 .6em; }
            table.diff tr.file td { font-family: system-ui, sans-serif; border-top: 1px solid #ddd; padding-top: .6em; }
            table.diff tr.hunk td { color: #555; background: #f4f4f4; }
            table.diff tr.run td { background: #e6f4ea; } table.diff tr.notrun td { background: #fde7e7; }
            table.diff tr.removed td { color: #888; text-decoration: line-through; }
            td.mark { font-weight: 600; } tr.notrun td.mark { color: #b3261e; } tr.run td.mark { color: #176f2c; }
            """;
}
