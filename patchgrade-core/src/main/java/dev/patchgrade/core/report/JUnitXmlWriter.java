package dev.patchgrade.core.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Writes surefire-style JUnit XML that Jenkins, surefire's report parser and junitparser read: only
 * XML 1.0 characters, one-line messages, dot-decimal times whatever the default locale, at least one
 * test case, and an atomic replace so a reader never sees half a file.
 */
public final class JUnitXmlWriter {
    /** Jenkins keeps 50,000 characters of a failing case's output; stay well under it. */
    public static final int MAX_STREAM_CHARS = 16_000;
    /** Ant's and Jenkins' form: local ISO date and time to the second, no zone (UTC here). */
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss", Locale.ROOT).withZone(ZoneOffset.UTC);

    private JUnitXmlWriter() {}

    public static void write(TestSuiteReport suite, Path file) {
        try {
            AtomicFiles.write(file, render(suite).getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the JUnit report " + file, e);
        }
    }

    public static String render(TestSuiteReport suite) {
        StringBuilder xml = new StringBuilder(4096);
        xml.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        xml.append("<testsuite name=\"").append(XmlText.attribute(suite.suiteName()))
                .append("\" tests=\"").append(Math.max(1, suite.cases().size()))
                .append("\" failures=\"").append(suite.count(TestCaseReport.Status.FAILED))
                .append("\" errors=\"").append(suite.count(TestCaseReport.Status.ERROR))
                .append("\" skipped=\"").append(suite.cases().isEmpty() ? 1 : suite.count(TestCaseReport.Status.SKIPPED))
                .append("\" time=\"").append(seconds(suite.seconds()))
                .append("\" timestamp=\"").append(TIMESTAMP.format(suite.timestamp()))
                .append("\" hostname=\"").append(XmlText.attribute(suite.hostname())).append("\">\n");
        if (!suite.properties().isEmpty()) {
            xml.append("  <properties>\n");
            suite.properties().forEach((name, value) -> xml.append("    <property name=\"").append(XmlText.attribute(name))
                    .append("\" value=\"").append(XmlText.attribute(XmlText.oneLine(value))).append("\"/>\n"));
            xml.append("  </properties>\n");
        }
        if (suite.cases().isEmpty()) {
            // Jenkins rejects a suite without test cases; say plainly that nothing was graded.
            xml.append("  <testcase classname=\"").append(XmlText.attribute(suite.className()))
                    .append("\" name=\"no cases\" time=\"0.000\">\n    <skipped message=\"no case was selected for grading\"/>\n  </testcase>\n");
        }
        for (TestCaseReport test : suite.cases()) {
            xml.append("  <testcase classname=\"").append(XmlText.attribute(suite.className()))
                    .append("\" name=\"").append(XmlText.attribute(test.name()))
                    .append("\" time=\"").append(seconds(test.seconds())).append("\"");
            boolean hasBody = test.status() != TestCaseReport.Status.PASSED || present(test.systemOut()) || present(test.systemErr());
            if (!hasBody) {
                xml.append("/>\n");
                continue;
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
        xml.append("</testsuite>\n");
        return xml.toString();
    }

    private static void problem(StringBuilder xml, String element, TestCaseReport test) {
        xml.append("    <").append(element)
                .append(" message=\"").append(XmlText.attribute(XmlText.oneLine(withoutType(test.message(), test.type()))))
                .append("\" type=\"").append(XmlText.attribute(nullToEmpty(test.type()))).append("\"");
        if (present(test.details())) {
            xml.append(">").append(XmlText.cdata(cap(test.details()))).append("</").append(element).append(">\n");
        } else {
            xml.append("/>\n");
        }
    }

    /**
     * The message without a leading {@code "<type>: "}: Jenkins and Surefire's report show the type next to
     * the message, and {@code rss: rss: measured ...} reads as a stutter.
     */
    static String withoutType(String message, String type) {
        String text = nullToEmpty(message);
        if (type != null && !type.isEmpty() && text.startsWith(type + ": ")) {
            return text.substring(type.length() + 2);
        }
        return text;
    }

    static String seconds(double seconds) {
        return String.format(Locale.ROOT, "%.3f", Math.max(0, seconds));
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
