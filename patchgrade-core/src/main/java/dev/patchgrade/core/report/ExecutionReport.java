package dev.patchgrade.core.report;

import java.nio.file.Path;
import java.util.Map;

/**
 * The JUnit XML and JSON reports of one goal execution, fed case by case as the cases finish
 * (Surefire's reporters listen the same way): memory stays flat however many cases there are.
 */
public final class ExecutionReport implements AutoCloseable {
    private final JUnitXmlWriter xml;
    private final JsonReportWriter json;

    /**
     * @param arrayName the JSON key of the rows ({@code cases}, {@code rows}), or {@code null} for one case and no rows
     * @param properties the XML suite's properties ({@code patchgrade.sandbox}, ...)
     */
    public ExecutionReport(Path xmlFile, Path jsonFile, String arrayName, String suiteName, String className, Map<String, String> properties) {
        this.xml = new JUnitXmlWriter(xmlFile, suiteName, className, properties);
        try {
            this.json = new JsonReportWriter(jsonFile, arrayName);
        } catch (RuntimeException e) {
            xml.close();
            throw e;
        }
    }

    /** One finished case: its outcome for the XML, and its goal's row for the JSON ({@code null}: none). */
    public synchronized void add(CaseOutcome outcome, Object row) {
        xml.add(outcome);
        if (row != null) {
            json.add(row);
        }
    }

    public SuiteTally tally() {
        return xml.tally();
    }

    /** Writes both reports; {@code head} is the JSON report's record of the whole execution. */
    public synchronized SuiteTally finish(double seconds, Object head) {
        SuiteTally tally = xml.finish(seconds);
        json.finish(head);
        return tally;
    }

    @Override
    public void close() {
        xml.close();
        json.close();
    }
}
