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
 * One goal execution as every cross-execution consumer sees it, drawn when the execution finished: the module's page,
 * the reactor's and the {@code check} goal read these records and nothing else, so none of them knows a goal or reads a
 * goal's JSON report. Each lies in {@value #DIRECTORY} of the reports directory, named by the execution; this class
 * alone writes and reads them.
 *
 * @param name the execution as the page names it, {@code <goal>.<executionId>}
 * @param status whether it passed, failed or stopped with an error
 * @param outcome the verdict, worst reason or pattern, or {@code error: <name>}
 * @param graded how much was graded, for the overview
 * @param detail what {@code check} says of it after the outcome: how many graded items failed, or the error's message
 * @param body the section's HTML below its heading
 */
public record ExecutionSummary(String name, Status status, String outcome, String graded, String detail, String body) {
    static final String DIRECTORY = ".summary";
    /** What the outcome of an execution that stopped with an error starts with, before the error's name. */
    static final String ERROR_PREFIX = "error: ";

    public enum Status { PASSED, FAILED, ERROR }

    /** What every JSON report's name starts with: {@code patchgrade.<goal>.<executionId>.json} */
    private static final String REPORT_PREFIX = "patchgrade.";

    /** The execution a JSON report belongs to, as records and pages name it: {@code patchgrade.<goal>.<executionId>.json} gives {@code <goal>.<executionId>}. */
    public static String nameOf(Path jsonReport) {
        String name = jsonReport.getFileName().toString();
        name = name.endsWith(".json") ? name.substring(0, name.length() - ".json".length()) : name;
        return name.startsWith(REPORT_PREFIX) ? name.substring(REPORT_PREFIX.length()) : name;
    }

    /** The JSON report of execution {@code name}: the inverse of {@link #nameOf}. */
    public static Path jsonReport(Path reportsDirectory, String name) {
        return reportsDirectory.resolve(REPORT_PREFIX + name + ".json");
    }

    /** The record of execution {@code name} in {@code reportsDirectory}, whether or not it exists. */
    public static Path file(Path reportsDirectory, String name) {
        return reportsDirectory.resolve(DIRECTORY).resolve(name + ".json");
    }

    /** The worst reason or pattern, or the error's name: the outcome without what the page puts before an error's name. */
    public String worst() {
        return status == Status.ERROR && outcome.startsWith(ERROR_PREFIX) ? outcome.substring(ERROR_PREFIX.length()) : outcome;
    }

    /** In place of this execution's record of an earlier build, atomically. */
    void write(Path reportsDirectory) {
        JsonReports.write(this, file(reportsDirectory, name));
    }

    /** The record of an execution from an earlier build goes with its other reports, so its verdict cannot stand. */
    public static void delete(Path reportsDirectory, String name) throws IOException {
        Files.deleteIfExists(file(reportsDirectory, name));
    }

    /** One record; an IOException says what is wrong with it (a record of an older patchgrade lacks fields). */
    public static ExecutionSummary read(Path file) throws IOException {
        ExecutionSummary summary = JsonReports.MAPPER.readValue(file.toFile(), ExecutionSummary.class);
        if (summary.name() == null || summary.status() == null || summary.outcome() == null || summary.graded() == null || summary.detail() == null
                || summary.body() == null) {
            throw new IOException(file + " is not a patchgrade summary record: it lacks name, status, outcome, graded, detail or body");
        }
        return summary;
    }

    /** Every execution's record file in the directory, by name; none where there is no directory. */
    public static List<Path> files(Path reportsDirectory) throws IOException {
        try (Stream<Path> listed = Files.list(reportsDirectory.resolve(DIRECTORY))) {
            return listed.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList();
        } catch (NoSuchFileException e) {
            return List.of();
        }
    }

    /** Every execution's record in the directory, by name; none where there is no directory. */
    static List<ExecutionSummary> readAll(Path reportsDirectory) {
        List<Path> files;
        try {
            files = files(reportsDirectory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + reportsDirectory.resolve(DIRECTORY), e);
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
