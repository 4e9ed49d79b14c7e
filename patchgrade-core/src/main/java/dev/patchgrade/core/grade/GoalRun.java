package dev.patchgrade.core.grade;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.report.ConsoleText;
import dev.patchgrade.core.report.ExecutionSummary;
import dev.patchgrade.core.report.HtmlSummary;
import dev.patchgrade.core.report.SectionView;
import dev.patchgrade.core.report.SuiteTally;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What every grading execution does around its goal's own work: takes the build lock, removes its stale
 * reports, turns a setup error (or a defect of ours) into error reports, refreshes the HTML summary and
 * prints Surefire's summary line with the counts its {@link GoalReports} were finished with.
 */
public final class GoalRun {
    private GoalRun() {}

    /** The report's {@code sandbox} object, for the JSON reports of every goal. */
    public static Map<String, Object> sandboxJson(GoalSettings settings) {
        return settings.facts().sandboxJson();
    }

    /** This execution's reports from an earlier build go first, so no failure can leave an old verdict standing. */
    static void removeStale(GoalSettings settings) {
        try {
            Files.deleteIfExists(settings.xmlReport());
            Files.deleteIfExists(settings.jsonReport());
            Files.deleteIfExists(settings.names().feedbackFile());
            ExecutionSummary.delete(settings.reportsDirectory(), ExecutionSummary.nameOf(settings.names().jsonReport()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove the stale report of " + settings.qualifiedName(), e);
        }
    }

    /** Rebuilds the HTML summary over every execution's JSON report and says where it is. */
    public static void summarize(GoalSettings settings, GradeLog log) {
        try {
            log.info("summary: " + HtmlSummary.refresh(settings.reportsDirectory(), settings.module()).toUri());
        } catch (UncheckedIOException e) {
            log.warn("could not write the HTML summary: " + e.getMessage());
        }
    }

    /** A bug of ours, with how to get the stack trace that a report of it needs. */
    static PatchgradeException defect(Exception e) {
        // An exception's message may quote a candidate's bytes (a path out of its stderr, say), and it goes to the console.
        return new PatchgradeException(ErrorName.UNEXPECTED_ERROR, shown -> ConsoleText.safe(e.toString()) + " (a defect in patchgrade: run " + shown.withStackTraces()
                + " for the stack trace and report it)", e);
    }

    /** The grading itself: writes its reports through {@code reports}, and may stop with a setup error, which {@link #grade} turns into error reports. */
    public interface Grading {
        GoalResult run(GoalReports reports) throws Exception;
    }

    /**
     * Runs a grading, turns a setup error into the error reports (so Jenkins shows it), and refreshes the
     * HTML summary either way.
     *
     * @param errorCaseName the test case name an error report uses
     * @param errorJson the first keys of the JSON report of an error
     * @param view a new view of the goal's section of the summary pages, for each report
     */
    public static GoalResult grade(GoalSettings settings, String errorCaseName, Function<PatchgradeException, Map<String, Object>> errorJson,
            Supplier<SectionView> view, GradeLog log, Grading grading) {
        return grade(settings, errorCaseName, errorJson, Map.of(), view, log, grading);
    }

    /** @param properties the goal's own suite properties, for the XML of an error too */
    public static GoalResult grade(GoalSettings settings, String errorCaseName, Function<PatchgradeException, Map<String, Object>> errorJson,
            Map<String, String> properties, Supplier<SectionView> view, GradeLog log, Grading grading) {
        GoalResult result;
        GoalReports reports = new GoalReports(settings, view, properties);
        removeStale(settings);
        try (BuildLock lock = BuildLock.take(settings.outputDirectory())) {
            // Before any launcher opens: the sandbox hides what exists when its worker starts, and a reports
            // directory made later, while cases finish, showed later cases the report bodies with the gold in them.
            Files.createDirectories(settings.reportsDirectory());
            result = grading.run(reports);
        } catch (PatchgradeException e) {
            result = failed(reports, errorCaseName, errorJson, e);
        } catch (IOException | UncheckedIOException e) {
            result = failed(reports, errorCaseName, errorJson, new PatchgradeException(ErrorName.WRITE_FAILED, ioMessage(e), e));
        } catch (Exception e) {
            // A bug of ours must not leave the last build's green report in place: say what happened.
            result = failed(reports, errorCaseName, errorJson, defect(e));
        }
        summarize(settings, log);
        SuiteTally tally = reports.written();
        if (tally != null) {
            if (result.error() != null || result.failed()) {
                log.warn(tally.testsRunLine());
                log.warn("worst: " + result.worst());
            } else {
                log.info(tally.testsRunLine());
                log.info("worst: " + result.worst());
            }
        }
        return result;
    }

    private static String ioMessage(Exception e) {
        return e.getCause() == null || e.getCause() == e ? e.getMessage() : e.getMessage() + ": " + e.getCause().getMessage();
    }

    private static GoalResult failed(GoalReports reports, String errorCaseName, Function<PatchgradeException, Map<String, Object>> errorJson,
            PatchgradeException error) {
        reports.writeError(errorCaseName, error, errorJson.apply(error));
        return GoalResult.error(error);
    }

    /** A JSON head in the order its keys are given: {@code Map.of} would change the order from one JVM to the next. */
    public static Map<String, Object> head(Object... keysAndValues) {
        Map<String, Object> head = new java.util.LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            head.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return head;
    }
}
