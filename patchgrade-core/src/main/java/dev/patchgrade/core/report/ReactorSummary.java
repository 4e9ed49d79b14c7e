package dev.patchgrade.core.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.patchgrade.core.CrossProcessLock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The reactor's page: one {@code index.html} in the top-level project's reports directory that lists
 * every module's goal executions and links to each module's own page. Each module registers itself
 * (a small JSON file under {@code modules/}) and renders the page from all registrations, under a lock,
 * so modules built at once ({@code -T 2}) never drop one another.
 */
public final class ReactorSummary {
    static final String MODULES = "modules";
    /** The reactor page's name when the top-level project grades too and its own {@code index.html} is taken. */
    static final String SHARED_FILE = "reactor.html";
    private static final Duration LOCK_DEADLINE = Duration.ofMinutes(2);

    private ReactorSummary() {}

    /**
     * Registers {@code moduleReports} under {@code module} and rewrites the reactor page.
     *
     * @return the page written
     */
    public static Path register(Path reactorReports, String module, Path moduleReports) {
        Path directory = reactorReports.toAbsolutePath().normalize();
        Path own = moduleReports.toAbsolutePath().normalize();
        Path page = directory.resolve(directory.equals(own) ? SHARED_FILE : HtmlSummary.FILE);
        try {
            return CrossProcessLock.holding(directory.resolve(".reactor.lock"), LOCK_DEADLINE, () -> {
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("module", module);
                entry.put("reports", directory.relativize(own).toString());
                Files.createDirectories(directory.resolve(MODULES));
                JsonReports.write(entry, directory.resolve(MODULES).resolve(fileName(module) + ".json"));
                HtmlSummary.writeStylesheet(directory);
                AtomicFiles.write(page, render(directory).getBytes(StandardCharsets.UTF_8));
                return page;
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the reactor summary " + page, e);
        }
    }

    static String render(Path directory) throws IOException {
        StringBuilder html = new StringBuilder(8192);
        html.append(HtmlSummary.head("patchgrade: every module"));
        html.append("<table class=\"overview\"><tr><th>module</th><th>goal execution</th><th>outcome</th><th>graded</th></tr>\n");
        List<Path> registrations;
        try (Stream<Path> files = Files.list(directory.resolve(MODULES))) {
            registrations = files.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList();
        }
        int modules = 0;
        for (Path registration : registrations) {
            JsonNode entry = JsonReports.MAPPER.readTree(registration.toFile());
            String module = entry.path("module").asText();
            Path reports = directory.resolve(entry.path("reports").asText()).normalize();
            List<ExecutionSummary> sections = ExecutionSummary.readAll(reports);
            if (sections.isEmpty()) {
                continue; // a module cleaned since it registered
            }
            modules++;
            String link = directory.relativize(reports.resolve(HtmlSummary.FILE)).toString().replace('\\', '/');
            boolean first = true;
            for (ExecutionSummary section : sections) {
                html.append("<tr><td>").append(first ? "<a href=\"" + HtmlSummary.esc(link) + "\">" + HtmlSummary.esc(module) + "</a>" : "")
                        .append("</td><td><a href=\"").append(HtmlSummary.esc(link + "#" + section.name())).append("\">").append(HtmlSummary.esc(section.name()))
                        .append("</a></td><td class=\"").append(HtmlSummary.cssClass(section.outcome())).append("\">").append(HtmlSummary.esc(section.outcome()))
                        .append("</td><td>").append(HtmlSummary.esc(section.graded())).append("</td></tr>\n");
                first = false;
            }
        }
        html.append("</table>\n<footer>Written by patchgrade over ").append(modules)
                .append(" module(s). Each module's own page, and its JUnit and JSON reports, lie in its target/patchgrade-reports.</footer>\n</body></html>\n");
        return html.toString();
    }

    /** A module name as a file name: letters, digits, dot, dash and underscore; anything else becomes an underscore. */
    private static String fileName(String module) {
        String safe = module.replaceAll("[^A-Za-z0-9._-]", "_");
        return safe.startsWith(".") ? "_" + safe : safe;
    }
}
