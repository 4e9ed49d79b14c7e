package dev.patchgrade.core.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code index.html}: one page (no script, no network) over every goal execution of the reports directory, rebuilt
 * after each execution so the last one of a module build covers them all. Each execution's section was drawn by its
 * goal's {@link SectionView} when it finished and kept as an {@link ExecutionSummary}; the page only puts them
 * together. Envelopes get a bar per figure (measured against its ceiling), digests a grid of the drifting fields per
 * case, three-column grades the pattern counts, differential grades their seed, the pattern counts and each
 * differing case's smallest input.
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
        List<ExecutionSummary> sections = ExecutionSummary.readAll(reportsDirectory);
        Path index = reportsDirectory.resolve(FILE);
        try {
            writeStylesheet(reportsDirectory);
            AtomicFiles.write(index, render(module, sections).getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + index, e);
        }
        return index;
    }

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

    static String render(String module, List<ExecutionSummary> sections) {
        StringBuilder html = new StringBuilder(16_384);
        html.append(head(module == null || module.isBlank() ? "patchgrade summary" : "patchgrade: " + module));
        html.append("<table class=\"overview\"><tr><th>goal execution</th><th>outcome</th><th>graded</th></tr>\n");
        for (ExecutionSummary section : sections) {
            html.append("<tr><td><a href=\"#").append(esc(section.name())).append("\">").append(esc(section.name())).append("</a></td><td class=\"")
                    .append(cssClass(section.outcome())).append("\">").append(esc(section.outcome())).append("</td><td>").append(esc(section.graded()))
                    .append("</td></tr>\n");
        }
        html.append("</table>\n");
        for (ExecutionSummary section : sections) {
            html.append("<section id=\"").append(esc(section.name())).append("\"><h2>").append(esc(section.name()))
                    .append(" <span class=\"badge ").append(cssClass(section.outcome())).append("\">").append(esc(section.outcome())).append("</span></h2>\n")
                    .append(section.body()).append("</section>\n");
        }
        html.append("<footer>Written by patchgrade. Full reports: TEST-*.xml (JUnit) and patchgrade.*.json beside this page.</footer>\n</body></html>\n");
        return html.toString();
    }

    static String cssClass(String outcome) {
        return switch (outcome) {
            case "accept", "pass", "pass_all_agree", "pass_agree" -> "ok";
            default -> outcome.startsWith("error") ? "err" : "bad";
        };
    }

    static String join(JsonNode array) {
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
