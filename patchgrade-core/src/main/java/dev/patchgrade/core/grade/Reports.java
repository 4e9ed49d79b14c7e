package dev.patchgrade.core.grade;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.report.HtmlSummary;
import dev.patchgrade.core.report.JUnitXmlWriter;
import dev.patchgrade.core.report.JsonReports;
import dev.patchgrade.core.report.TestCaseReport;
import dev.patchgrade.core.report.TestSuiteReport;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Writes a goal execution's JUnit XML and JSON reports under the names the contract fixes. */
public final class Reports {
    /** The suite each grading in progress wrote last, for its console summary; keyed by report file, so parallel modules never mix. */
    private static final Map<java.nio.file.Path, TestSuiteReport> WRITTEN = new java.util.concurrent.ConcurrentHashMap<>();

    private Reports() {}

    public static void writeSuite(GoalSettings settings, List<TestCaseReport> cases, double seconds) {
        writeSuite(settings, settings.className(), cases, seconds);
    }

    public static void writeSuite(GoalSettings settings, String suiteName, List<TestCaseReport> cases, double seconds) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("patchgrade.sandbox", settings.facts().sandbox().describe());
        properties.put("patchgrade.method", settings.facts().method());
        properties.put("patchgrade.cpu", settings.facts().cpuDescription());
        TestSuiteReport suite = new TestSuiteReport(suiteName, settings.className(), seconds, cases, properties);
        JUnitXmlWriter.write(suite, settings.xmlReport());
        WRITTEN.put(settings.xmlReport(), suite);
    }

    /** The report's {@code sandbox} object, for the JSON reports of every goal. */
    public static Map<String, Object> sandboxJson(GoalSettings settings) {
        return settings.facts().sandboxJson();
    }

    /** A setup error still leaves both reports, so Jenkins shows it. */
    public static void writeError(GoalSettings settings, String caseName, PatchgradeException error, Map<String, Object> jsonHead) {
        writeSuite(settings, List.of(TestCaseReport.error(caseName, error.errorName(), error.getMessage(), error.getMessage())), 0);
        Map<String, Object> json = new LinkedHashMap<>(jsonHead);
        json.put("error", Map.of("type", error.errorName(), "message", error.getMessage()));
        json.put("sandbox", sandboxJson(settings));
        JsonReports.write(json, settings.jsonReport());
    }

    /** This execution's reports from an earlier build go first, so no failure can leave an old verdict standing. */
    static void removeStale(GoalSettings settings) {
        try {
            java.nio.file.Files.deleteIfExists(settings.xmlReport());
            java.nio.file.Files.deleteIfExists(settings.jsonReport());
            java.nio.file.Files.deleteIfExists(settings.reportsDirectory().resolve(settings.qualifiedName() + ".feedback.jsonl"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot remove the stale report of " + settings.qualifiedName(), e);
        }
    }

    /** Rebuilds the HTML summary over every execution's JSON report and says where it is. */
    public static void summarize(GoalSettings settings, GradeLog log) {
        try {
            log.info("summary: " + HtmlSummary.refresh(settings.reportsDirectory(), settings.module()).toUri());
        } catch (java.io.UncheckedIOException e) {
            log.warn("could not write the HTML summary: " + e.getMessage());
        }
    }

    /** The grading itself: may stop with a setup error, which {@link #grade} turns into error reports. */
    public interface Grading {
        GoalResult run() throws java.io.IOException;
    }

    /**
     * Runs a grading, turns a setup error into the error reports (so Jenkins shows it), and refreshes the
     * HTML summary either way.
     *
     * @param errorCaseName the test case name an error report uses
     * @param errorJson the first keys of the JSON report of an error
     */
    public static GoalResult grade(GoalSettings settings, String errorCaseName,
            java.util.function.Function<PatchgradeException, Map<String, Object>> errorJson, GradeLog log, Grading grading) {
        GoalResult result;
        removeStale(settings);
        try (BuildLock lock = BuildLock.take(settings.outputDirectory())) {
            result = grading.run();
        } catch (PatchgradeException e) {
            writeError(settings, errorCaseName, e, errorJson.apply(e));
            result = GoalResult.error(e);
        } catch (java.io.IOException e) {
            PatchgradeException error = new PatchgradeException("io_error", e.getMessage(), e);
            writeError(settings, errorCaseName, error, errorJson.apply(error));
            result = GoalResult.error(error);
        } catch (RuntimeException e) {
            // A bug of ours must not leave the last build's green report in place: say what happened.
            PatchgradeException error = new PatchgradeException("unexpected_error", e.toString()
                    + " (a defect in patchgrade: run with -X for the stack trace and report it)", e);
            writeError(settings, errorCaseName, error, errorJson.apply(error));
            result = GoalResult.error(error);
        }
        summarize(settings, log);
        TestSuiteReport suite = WRITTEN.remove(settings.xmlReport());
        if (suite != null) {
            String line = testsRunLine(suite);
            if (result.error() != null || result.failed()) {
                log.warn(line);
                log.warn("worst: " + result.worst());
            } else {
                log.info(line);
                log.info("worst: " + result.worst());
            }
        }
        return result;
    }

    /** Surefire's summary line, so that people and log parsers find the totals where they look for them. */
    public static String testsRunLine(TestSuiteReport suite) {
        long tests = Math.max(1, suite.cases().size());
        long skipped = suite.cases().isEmpty() ? 1 : suite.count(TestCaseReport.Status.SKIPPED);
        return String.format(java.util.Locale.ROOT, "Tests run: %d, Failures: %d, Errors: %d, Skipped: %d, Time elapsed: %.3f s - in %s",
                tests, suite.count(TestCaseReport.Status.FAILED), suite.count(TestCaseReport.Status.ERROR), skipped, suite.seconds(),
                suite.suiteName());
    }
}
