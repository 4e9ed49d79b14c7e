package dev.patchgrade.core.grade;

import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.report.CaseOutcome;
import dev.patchgrade.core.report.ExecutionReport;
import dev.patchgrade.core.report.SectionView;
import dev.patchgrade.core.report.SuiteTally;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleSupplier;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The reports of one goal execution, opened under the names the contract fixes, with the goal's look on the summary
 * pages. It keeps the counts the reports were finished with, which {@link GoalRun#grade} prints once grading is over.
 */
public final class GoalReports {
    private final GoalSettings settings;
    private final Supplier<SectionView> view;
    private final Map<String, String> properties;
    private SuiteTally written;

    /** @param view a new view of the goal's section for each report opened */
    public GoalReports(GoalSettings settings, Supplier<SectionView> view) {
        this(settings, view, Map.of());
    }

    /**
     * @param view a new view of the goal's section for each report opened
     * @param properties the goal's own suite properties ({@code patchgrade.seed}), after the ones every report has
     */
    GoalReports(GoalSettings settings, Supplier<SectionView> view, Map<String, String> properties) {
        this.settings = settings;
        this.view = view;
        this.properties = properties;
    }

    /** The reports of this execution, to be fed case by case and {@linkplain #finish finished} once. */
    public ExecutionReport open(String suiteName, String rowsName) {
        return open(suiteName, rowsName, view.get());
    }

    private ExecutionReport open(String suiteName, String rowsName, SectionView section) {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("patchgrade.sandbox", settings.facts().sandbox().describe());
        all.put("patchgrade.method", settings.facts().method());
        all.put("patchgrade.cpu", settings.facts().cpuDescription());
        all.putAll(properties);
        return new ExecutionReport(settings.xmlReport(), settings.jsonReport(), rowsName, suiteName, settings.className(), all, section);
    }

    /**
     * Every reporter of an opened report, fed as one: its JUnit XML and its JSON report (with the summary pages'
     * record), then the goal's own, in their order.
     *
     * @param seconds the suite's time, asked for when the rows are done
     * @param failing which rows the summary pages list as failing
     */
    public <R, T> Reporters<R, T> reporters(ExecutionReport report, DoubleSupplier seconds, Predicate<R> failing, Function<R, CaseOutcome> junit,
            JsonView<R, T> json, List<CaseReporter<R, T>> own) {
        List<CaseReporter<R, T>> every = new ArrayList<>();
        every.add(new JUnitReporter<>(this, report, junit, seconds));
        every.add(new JsonReporter<>(report, failing, json));
        every.addAll(own);
        return new Reporters<>(every);
    }

    public void finish(ExecutionReport report, double seconds, Object jsonHead) {
        written = report.finish(seconds, jsonHead);
    }

    /** The XML alone, whose counts {@link GoalRun#grade} prints; the JSON is finished on its own. */
    void finishXml(ExecutionReport report, double seconds) {
        written = report.finishXml(seconds);
    }

    /** A setup error still leaves every report, so Jenkins shows it. */
    void writeError(String caseName, PatchgradeException error, Map<String, Object> jsonHead) {
        Map<String, Object> json = new LinkedHashMap<>(jsonHead);
        String message = error.message(settings.suggestions());
        json.put("error", GoalRun.head("type", error.errorName(), "message", message));
        json.put("sandbox", GoalRun.sandboxJson(settings));
        try (ExecutionReport report = open(settings.className(), null, view.get())) {
            report.add(CaseOutcome.error(caseName, error.errorName(), message, message), null);
            finish(report, 0, json);
        }
    }

    /** The counts of the reports last finished, or {@code null} where none was. */
    SuiteTally written() {
        return written;
    }
}
