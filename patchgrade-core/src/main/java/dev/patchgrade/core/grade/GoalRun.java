package dev.patchgrade.core.grade;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.report.CaseOutcome;
import dev.patchgrade.core.report.ConsoleText;
import dev.patchgrade.core.report.ExecutionReport;
import dev.patchgrade.core.report.HtmlSummary;
import dev.patchgrade.core.report.SuiteTally;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * What every grading execution does around its goal's own work: takes the build lock, removes its stale
 * reports, turns a setup error (or a defect of ours) into error reports, refreshes the HTML summary and
 * prints Surefire's summary line. Goals open their reports here, under the names the contract fixes.
 */
public final class GoalRun {
    /** The counts each grading in progress wrote last, for its console summary; keyed by report file, so parallel modules never mix. */
    private static final Map<Path, SuiteTally> WRITTEN = new ConcurrentHashMap<>();

    private GoalRun() {}

    /** The reports of this execution, to be fed case by case and {@linkplain #finish finished} once. */
    public static ExecutionReport openReport(GoalSettings settings, String suiteName, String rowsName) {
        return openReport(settings, suiteName, rowsName, Map.of());
    }

    /** @param own the goal's own suite properties ({@code patchgrade.seed}), after the ones every report has */
    public static ExecutionReport openReport(GoalSettings settings, String suiteName, String rowsName, Map<String, String> own) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("patchgrade.sandbox", settings.facts().sandbox().describe());
        properties.put("patchgrade.method", settings.facts().method());
        properties.put("patchgrade.cpu", settings.facts().cpuDescription());
        properties.putAll(own);
        return new ExecutionReport(settings.xmlReport(), settings.jsonReport(), rowsName, suiteName, settings.className(), properties);
    }

    public static void finish(GoalSettings settings, ExecutionReport report, double seconds, Object jsonHead) {
        WRITTEN.put(settings.xmlReport(), report.finish(seconds, jsonHead));
    }

    /** The report's {@code sandbox} object, for the JSON reports of every goal. */
    public static Map<String, Object> sandboxJson(GoalSettings settings) {
        return settings.facts().sandboxJson();
    }

    /** A setup error still leaves both reports, so Jenkins shows it. */
    public static void writeError(GoalSettings settings, String caseName, PatchgradeException error, Map<String, Object> jsonHead) {
        writeError(settings, caseName, error, jsonHead, Map.of());
    }

    /** @param properties the goal's own suite properties, as its other reports have them */
    static void writeError(GoalSettings settings, String caseName, PatchgradeException error, Map<String, Object> jsonHead,
            Map<String, String> properties) {
        Map<String, Object> json = new LinkedHashMap<>(jsonHead);
        String message = error.message(settings.suggestions());
        json.put("error", Map.of("type", error.errorName(), "message", message));
        json.put("sandbox", sandboxJson(settings));
        try (ExecutionReport report = openReport(settings, settings.className(), null, properties)) {
            report.add(CaseOutcome.error(caseName, error.errorName(), message, message), null);
            finish(settings, report, 0, json);
        }
    }

    /** This execution's reports from an earlier build go first, so no failure can leave an old verdict standing. */
    static void removeStale(GoalSettings settings) {
        try {
            Files.deleteIfExists(settings.xmlReport());
            Files.deleteIfExists(settings.jsonReport());
            Files.deleteIfExists(settings.reportsDirectory().resolve(settings.qualifiedName() + ".feedback.jsonl"));
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

    /** The grading itself: may stop with a setup error, which {@link #grade} turns into error reports. */
    public interface Grading {
        GoalResult run() throws Exception;
    }

    /**
     * Runs a grading, turns a setup error into the error reports (so Jenkins shows it), and refreshes the
     * HTML summary either way.
     *
     * @param errorCaseName the test case name an error report uses
     * @param errorJson the first keys of the JSON report of an error
     */
    public static GoalResult grade(GoalSettings settings, String errorCaseName, Function<PatchgradeException, Map<String, Object>> errorJson,
            GradeLog log, Grading grading) {
        return grade(settings, errorCaseName, errorJson, Map.of(), log, grading);
    }

    /** @param properties the goal's own suite properties, for the XML of an error too */
    public static GoalResult grade(GoalSettings settings, String errorCaseName, Function<PatchgradeException, Map<String, Object>> errorJson,
            Map<String, String> properties, GradeLog log, Grading grading) {
        GoalResult result;
        removeStale(settings);
        try (BuildLock lock = BuildLock.take(settings.outputDirectory())) {
            // Before any launcher opens: the sandbox hides what exists when its worker starts, and a reports
            // directory made later, while cases finish, showed later cases the report bodies with the gold in them.
            Files.createDirectories(settings.reportsDirectory());
            result = grading.run();
        } catch (PatchgradeException e) {
            result = failed(settings, errorCaseName, errorJson, properties, e);
        } catch (IOException | UncheckedIOException e) {
            result = failed(settings, errorCaseName, errorJson, properties, new PatchgradeException(ErrorName.WRITE_FAILED, ioMessage(e), e));
        } catch (Exception e) {
            // A bug of ours must not leave the last build's green report in place: say what happened.
            result = failed(settings, errorCaseName, errorJson, properties, defect(e));
        }
        summarize(settings, log);
        SuiteTally tally = WRITTEN.remove(settings.xmlReport());
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

    private static GoalResult failed(GoalSettings settings, String errorCaseName, Function<PatchgradeException, Map<String, Object>> errorJson,
            Map<String, String> properties, PatchgradeException error) {
        writeError(settings, errorCaseName, error, errorJson.apply(error), properties);
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
