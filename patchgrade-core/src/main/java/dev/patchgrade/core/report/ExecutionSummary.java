package dev.patchgrade.core.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * One goal execution as the summary pages show it, drawn when the execution finished: the module's page and the
 * reactor's read these records and nothing else, so neither knows a goal or reads a goal's JSON report. Each lies in
 * {@value #DIRECTORY} of the reports directory, named by the execution; this class alone writes and reads them.
 *
 * @param name the execution as the page names it, {@code <goal>.<executionId>}
 * @param outcome the verdict, worst reason or pattern, or {@code error: <name>}
 * @param graded how much was graded, for the overview
 * @param body the section's HTML below its heading
 */
public record ExecutionSummary(String name, String outcome, String graded, String body) {
    static final String DIRECTORY = ".summary";

    static Path file(Path reportsDirectory, String name) {
        return reportsDirectory.resolve(DIRECTORY).resolve(name + ".json");
    }

    /** In place of this execution's record of an earlier build, atomically. */
    void write(Path reportsDirectory) {
        JsonReports.write(this, file(reportsDirectory, name));
    }

    /** The record of an execution from an earlier build goes with its other reports, so its verdict cannot stand. */
    public static void delete(Path reportsDirectory, String name) throws IOException {
        Files.deleteIfExists(file(reportsDirectory, name));
    }

    static ExecutionSummary read(Path file) throws IOException {
        ExecutionSummary summary = JsonReports.MAPPER.readValue(file.toFile(), ExecutionSummary.class);
        if (summary.name() == null || summary.outcome() == null || summary.graded() == null || summary.body() == null) {
            throw new IOException(file + " is not a patchgrade summary record: it lacks name, outcome, graded or body; the next build rewrites it");
        }
        return summary;
    }

    /** Every execution's record in the directory, by name; none where there is no directory. */
    static List<ExecutionSummary> readAll(Path reportsDirectory) {
        Path directory = reportsDirectory.resolve(DIRECTORY);
        List<Path> files;
        try (Stream<Path> listed = Files.list(directory)) {
            files = listed.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList();
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + directory, e);
        }
        List<ExecutionSummary> summaries = new ArrayList<>();
        for (Path file : files) {
            try {
                summaries.add(read(file));
            } catch (NoSuchFileException e) {
                // removed by its execution starting again since the listing: that execution's refresh shows it
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the summary record " + file + " (" + e.getMessage()
                        + "); delete it, and the next build of its execution writes it again", e);
            }
        }
        return summaries;
    }
}
