package dev.patchgrade.core.grade;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.report.ExecutionSummary;
import dev.patchgrade.core.report.ExecutionSummary.Status;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code check} goal without Maven: reads the {@link ExecutionSummary} every grading execution of a module left
 * (an execution that stopped with an error leaves one too) and says which of them failed or stopped with an error,
 * so the build can fail once, at the end, with all of them (the grading executions ran with {@code testFailureIgnore}).
 * It decides from the records alone: what failed was judged by each goal when it reported.
 */
public final class ModuleCheck {
    private ModuleCheck() {}

    /**
     * One goal execution as its summary record tells it.
     *
     * @param name {@code <goal>.<executionId>}
     * @param outcome {@code pass}, {@code accept}, or the worst failure type or error name
     * @param detail one line: how many graded items failed, or the error's message
     */
    public record Execution(String name, Status status, String outcome, String detail) {
        static Execution of(ExecutionSummary summary) {
            return new Execution(summary.name(), summary.status(), summary.worst(), summary.detail());
        }
    }

    /**
     * What the records said: the executions read, by name, and the JSON reports of the executions whose record is
     * older than this build, passed over.
     */
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
     * @param since records last written before this instant belong to an earlier build and are passed over
     *     ({@code null} reads them all)
     */
    public static Result read(Path reportsDirectory, Instant since) {
        List<Execution> executions = new ArrayList<>();
        List<Path> stale = new ArrayList<>();
        List<Path> files;
        try {
            files = ExecutionSummary.files(reportsDirectory);
        } catch (IOException e) {
            throw new PatchgradeException(ErrorName.UNREADABLE_REPORT, "cannot list the reports in " + reportsDirectory + ": " + e.getMessage(), e);
        }
        for (Path file : files) {
            try {
                if (since != null && Files.getLastModifiedTime(file).toInstant().isBefore(since)) {
                    String name = file.getFileName().toString();
                    stale.add(ExecutionSummary.jsonReport(reportsDirectory, name.substring(0, name.length() - ".json".length())));
                    continue;
                }
                executions.add(Execution.of(ExecutionSummary.read(file)));
            } catch (NoSuchFileException e) {
                // removed by its execution starting again since the listing: not an execution of this build's end
            } catch (IOException e) {
                String problem = e.getMessage();
                throw new PatchgradeException(ErrorName.UNREADABLE_REPORT, shown -> file + " cannot be read as a patchgrade summary record ("
                        + problem + "); delete it, or run " + shown.cleanBuild(), e);
            }
        }
        return new Result(executions, stale);
    }
}
