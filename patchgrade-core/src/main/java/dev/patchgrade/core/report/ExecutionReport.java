package dev.patchgrade.core.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.Map;

/**
 * Every reporter of one goal execution, fed case by case as the cases finish (Surefire's reporters listen the
 * same way, and JaCoCo's {@code MultiReportVisitor} hands one visit to each of its reports): the JUnit XML, the
 * JSON report and the summary pages' record. Memory stays flat however many cases there are.
 */
public final class ExecutionReport implements AutoCloseable {
    private final JUnitXmlWriter xml;
    private final JsonReportWriter json;
    private final SummaryReporter summary;

    /**
     * @param arrayName the JSON key of the rows ({@code cases}, {@code rows}), or {@code null} for one case and no rows
     * @param properties the XML suite's properties ({@code patchgrade.sandbox}, ...)
     * @param view how the summary pages show this execution
     */
    public ExecutionReport(Path xmlFile, Path jsonFile, String arrayName, String suiteName, String className, Map<String, String> properties,
            SectionView view) {
        this.xml = new JUnitXmlWriter(xmlFile, suiteName, className, properties);
        try {
            this.json = new JsonReportWriter(jsonFile, arrayName);
        } catch (RuntimeException e) {
            xml.close();
            throw e;
        }
        this.summary = new SummaryReporter(jsonFile.toAbsolutePath().getParent(), ExecutionSummary.nameOf(jsonFile), view, arrayName);
    }

    /** A report the summary pages show without rows. */
    public ExecutionReport(Path xmlFile, Path jsonFile, String arrayName, String suiteName, String className, Map<String, String> properties) {
        this(xmlFile, jsonFile, arrayName, suiteName, className, properties, SectionView.NONE);
    }


    /** One finished case: its outcome for the XML, and its goal's row for the JSON and the summary ({@code null}: none). */
    public synchronized void add(CaseOutcome outcome, Object row) {
        addCase(outcome);
        if (row != null) {
            addRow(outcome.status() == CaseOutcome.Status.FAILED || outcome.status() == CaseOutcome.Status.ERROR, row);
        }
    }

    /** One finished case for the XML alone. */
    public synchronized void addCase(CaseOutcome outcome) {
        xml.add(outcome);
    }

    /**
     * One finished case's row for the JSON and the summary alone; {@code failing} as its goal judged it, which decides
     * the summary's status. A {@code null} row counts for the summary only: the JSON report lists no rows.
     */
    public synchronized void addRow(boolean failing, Object row) {
        if (row != null) {
            json.add(row);
        }
        summary.add(failing, row);
    }

    public SuiteTally tally() {
        return xml.tally();
    }

    /** Writes every report; {@code head} is the JSON report's record of the whole execution. */
    public synchronized SuiteTally finish(double seconds, Object head) {
        SuiteTally tally = finishXml(seconds);
        finishJson(head);
        return tally;
    }

    /** Writes the XML alone. */
    public synchronized SuiteTally finishXml(double seconds) {
        return xml.finish(seconds);
    }

    /** Writes the JSON and the summary's record alone; {@code head} is the JSON report's record of the whole execution. */
    public synchronized void finishJson(Object head) {
        JsonNode fields = JsonReports.MAPPER.valueToTree(head);
        json.finish(fields);
        summary.finish(fields);
    }

    @Override
    public void close() {
        xml.close();
        json.close();
    }
}
