package dev.patchgrade.core.report;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;

/**
 * Writes surefire-style JUnit XML that Jenkins, surefire's report parser and junitparser read: only
 * XML 1.0 characters, one-line messages, dot-decimal times whatever the default locale, at least one
 * test case, and an atomic replace so a reader never sees half a file.
 *
 * <p>Cases are appended as they finish ({@link #add}) to a body beside the report and only counted
 * here, so a grade of any size holds nothing per case; {@link #finish} writes the {@code testsuite}
 * head with the counts, then the body.
 */
public final class JUnitXmlWriter implements AutoCloseable {
    /** Jenkins keeps 50,000 characters of a failing case's output; stay well under it. */
    public static final int MAX_STREAM_CHARS = 16_000;
    /** Ant's and Jenkins' form: local ISO date and time to the second, no zone (UTC here). */
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss", Locale.ROOT).withZone(ZoneOffset.UTC);

    private final Path file;
    private final String suiteName;
    private final String className;
    private final Map<String, String> properties;
    private final BodyFile body;
    private final Writer bodyWriter;
    private final SuiteTally tally;

    /**
     * @param className the {@code classname} of every test case: {@code <artifactId>.patchgrade.<goal>.<executionId>}
     * @param properties the suite's {@code properties} ({@code patchgrade.sandbox}, ...), in order
     */
    public JUnitXmlWriter(Path file, String suiteName, String className, Map<String, String> properties) {
        this.file = file;
        this.suiteName = suiteName;
        this.className = className;
        this.properties = properties == null ? Map.of() : new java.util.LinkedHashMap<>(properties);
        this.body = new BodyFile(file);
        this.bodyWriter = new OutputStreamWriter(body.stream(), StandardCharsets.UTF_8);
        this.tally = new SuiteTally(suiteName);
    }

    public void add(CaseOutcome test) {
        tally.count(test.status());
        try {
            testcase(bodyWriter, className, test);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the JUnit report " + file, e);
        }
    }

    /** The counts so far. */
    public SuiteTally tally() {
        return tally;
    }

    /** Writes the report: the head with the counts, every case added, atomically in place of any older one. */
    public SuiteTally finish(double seconds, Instant timestamp, String hostname) {
        tally.seconds(seconds);
        try {
            bodyWriter.flush();
            AtomicFiles.write(file, out -> {
                Writer head = new OutputStreamWriter(out, StandardCharsets.UTF_8);
                head(head, suiteName, className, tally, timestamp, hostname, properties);
                head.flush();
                body.copyTo(out);
                head.write("</testsuite>\n");
                head.flush();
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the JUnit report " + file, e);
        } finally {
            body.close();
        }
        return tally;
    }

    public SuiteTally finish(double seconds) {
        return finish(seconds, Instant.now().minusMillis(Math.round(seconds * 1000)), HostName.LOCAL);
    }

    /** Drops an unfinished report's body; a finished report stays. */
    @Override
    public void close() {
        body.close();
    }

    /** A whole suite held in memory, for small reports and tests. */
    public static void write(TestSuiteReport suite, Path file) {
        try {
            AtomicFiles.write(file, render(suite).getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the JUnit report " + file, e);
        }
    }

    public static String render(TestSuiteReport suite) {
        SuiteTally tally = new SuiteTally(suite.suiteName());
        suite.cases().forEach(c -> tally.count(c.status()));
        tally.seconds(suite.seconds());
        java.io.StringWriter xml = new java.io.StringWriter(4096);
        try {
            head(xml, suite.suiteName(), suite.className(), tally, suite.timestamp(), suite.hostname(), suite.properties());
            for (CaseOutcome test : suite.cases()) {
                testcase(xml, suite.className(), test);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        xml.append("</testsuite>\n");
        return xml.toString();
    }

    private static void head(Writer xml, String suiteName, String className, SuiteTally tally, Instant timestamp, String hostname,
            Map<String, String> properties) throws IOException {
        xml.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        xml.append("<testsuite name=\"").append(XmlText.attribute(suiteName))
                .append("\" tests=\"").append(Long.toString(tally.tests()))
                .append("\" failures=\"").append(Long.toString(tally.failures()))
                .append("\" errors=\"").append(Long.toString(tally.errors()))
                .append("\" skipped=\"").append(Long.toString(tally.skipped()))
                .append("\" time=\"").append(seconds(tally.seconds()))
                .append("\" timestamp=\"").append(TIMESTAMP.format(timestamp))
                .append("\" hostname=\"").append(XmlText.attribute(hostname)).append("\">\n");
        if (!properties.isEmpty()) {
            xml.append("  <properties>\n");
            for (Map.Entry<String, String> property : properties.entrySet()) {
                xml.append("    <property name=\"").append(XmlText.attribute(property.getKey()))
                        .append("\" value=\"").append(XmlText.attribute(XmlText.oneLine(property.getValue()))).append("\"/>\n");
            }
            xml.append("  </properties>\n");
        }
        if (tally.graded() == 0) {
            // Jenkins rejects a suite without test cases; say plainly that nothing was graded.
            xml.append("  <testcase classname=\"").append(XmlText.attribute(className))
                    .append("\" name=\"no cases\" time=\"0.000\">\n    <skipped message=\"no case was selected for grading\"/>\n  </testcase>\n");
        }
    }

    private static void testcase(Writer xml, String className, CaseOutcome test) throws IOException {
        xml.append("  <testcase classname=\"").append(XmlText.attribute(className))
                .append("\" name=\"").append(XmlText.attribute(test.name()))
                .append("\" time=\"").append(seconds(test.seconds())).append("\"");
        boolean hasBody = test.status() != CaseOutcome.Status.PASSED || present(test.systemOut()) || present(test.systemErr());
        if (!hasBody) {
            xml.append("/>\n");
            return;
        }
        xml.append(">\n");
        switch (test.status()) {
            case FAILED -> problem(xml, "failure", test);
            case ERROR -> problem(xml, "error", test);
            case SKIPPED -> xml.append("    <skipped message=\"").append(XmlText.attribute(XmlText.oneLine(nullToEmpty(test.message())))).append("\"/>\n");
            case PASSED -> { }
        }
        if (present(test.systemOut())) {
            xml.append("    <system-out>").append(XmlText.cdata(cap(test.systemOut()))).append("</system-out>\n");
        }
        if (present(test.systemErr())) {
            xml.append("    <system-err>").append(XmlText.cdata(cap(test.systemErr()))).append("</system-err>\n");
        }
        xml.append("  </testcase>\n");
    }

    private static void problem(Writer xml, String element, CaseOutcome test) throws IOException {
        xml.append("    <").append(element)
                .append(" message=\"").append(XmlText.attribute(XmlText.oneLine(naming(test.message(), test.type()))))
                .append("\" type=\"").append(XmlText.attribute(nullToEmpty(test.type()))).append("\"");
        if (present(test.details())) {
            xml.append(">").append(XmlText.cdata(cap(test.details()))).append("</").append(element).append(">\n");
        } else {
            xml.append("/>\n");
        }
    }

    /**
     * The message as Jenkins shows it: Jenkins shows a failure's message, never its {@code type}, so a message
     * that does not name the type among its fields ({@code rss: ...; user_cpu: ...}) gets it in front.
     */
    static String naming(String message, String type) {
        String text = nullToEmpty(message);
        if (type == null || type.isEmpty() || text.startsWith(type + ":") || text.contains("; " + type + ":")) {
            return text;
        }
        return text.isEmpty() ? type : type + ": " + text;
    }

    /**
     * Seconds with three decimals, rounded to the nearest millisecond (a value half-way in decimal, such as 0.5005,
     * may round the other way than {@code %.3f} would). By hand: a {@code String.format} per case was the largest
     * piece of the report writer's time in a profile of a grade.
     */
    static String seconds(double seconds) {
        double clamped = Math.max(0, seconds);
        if (!(clamped < 9e15)) {
            return String.format(Locale.ROOT, "%.3f", clamped);
        }
        long millis = Math.round(clamped * 1000);
        long fraction = millis % 1000;
        return (millis / 1000) + (fraction < 10 ? ".00" : fraction < 100 ? ".0" : ".") + fraction;
    }

    private static String cap(String text) {
        if (text.length() <= MAX_STREAM_CHARS) {
            return text;
        }
        int half = MAX_STREAM_CHARS / 2;
        return text.substring(0, half) + "\n[... " + (text.length() - 2 * half) + " characters cut; see the full stream file ...]\n"
                + text.substring(text.length() - half);
    }

    private static boolean present(String text) {
        return text != null && !text.isEmpty();
    }

    private static String nullToEmpty(String text) {
        return text == null ? "" : text;
    }
}
