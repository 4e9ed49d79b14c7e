package dev.patchgrade.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

class JUnitXmlWriterTest {
    private static Document parse(String xml) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void secondsAreWrittenToTheMillisecondWithThreeDecimals() {
        assertThat(JUnitXmlWriter.seconds(0)).isEqualTo("0.000");
        assertThat(JUnitXmlWriter.seconds(0.0004)).isEqualTo("0.000");
        assertThat(JUnitXmlWriter.seconds(0.05)).isEqualTo("0.050");
        assertThat(JUnitXmlWriter.seconds(1.5)).isEqualTo("1.500");
        assertThat(JUnitXmlWriter.seconds(2.9996)).isEqualTo("3.000");
        assertThat(JUnitXmlWriter.seconds(123.456789)).isEqualTo("123.457");
        assertThat(JUnitXmlWriter.seconds(-3)).isEqualTo("0.000");
        assertThat(JUnitXmlWriter.seconds(Double.NaN)).isEqualTo("NaN");
        for (int i = 0; i < 200_000; i++) {
            double value = i * 0.00137;
            String written = JUnitXmlWriter.seconds(value);
            assertThat(written).matches("[0-9]+\\.[0-9]{3}");
            assertThat(Double.parseDouble(written)).isCloseTo(value, org.assertj.core.data.Offset.offset(0.0005 + 1e-9));
        }
    }

    @Test
    void writesCountsTimesAndFailuresThatParse() throws Exception {
        TestSuiteReport suite = new TestSuiteReport("patchgrade.digest.default", "patchgrade.digest.default", 1.5, List.of(
                CaseOutcome.passed("1.00", 0.01, "100\n", ""),
                CaseOutcome.failed("1.005", 0.02, "stderr_sha256", "stderr_sha256: aaa -> bbb", "details\nmore", "101\n", "WARN: rounding\n"),
                CaseOutcome.error("setup", "case_set_drift", "added: x", null)));
        Document doc = parse(JUnitXmlWriter.render(suite));
        Element root = doc.getDocumentElement();
        assertThat(root.getAttribute("tests")).isEqualTo("3");
        assertThat(root.getAttribute("failures")).isEqualTo("1");
        assertThat(root.getAttribute("errors")).isEqualTo("1");
        assertThat(root.getAttribute("time")).isEqualTo("1.500");
        Element failure = (Element) doc.getElementsByTagName("failure").item(0);
        assertThat(failure.getAttribute("type")).isEqualTo("stderr_sha256");
        assertThat(failure.getAttribute("message")).as("Jenkins shows the message, never the type").isEqualTo("stderr_sha256: aaa -> bbb");
        assertThat(failure.getTextContent()).isEqualTo("details\nmore");
        assertThat(doc.getElementsByTagName("system-err").item(0).getTextContent()).isEqualTo("WARN: rounding\n");
        assertThat(((Element) doc.getElementsByTagName("error").item(0)).getAttribute("type")).isEqualTo("case_set_drift");
    }

    @Test
    void theSuiteSaysWhenAndWhereItRan() throws Exception {
        TestSuiteReport suite = new TestSuiteReport("m.patchgrade.envelope.e", "m.patchgrade.envelope.e", 2, List.of(
                CaseOutcome.failed("driver", 2, "rss", "rss: measured 9 KB, ceiling 5 KB", null, null, null)),
                java.util.Map.of(), java.time.Instant.parse("2026-03-04T05:06:07.890Z"), "agent-7");
        Element root = parse(JUnitXmlWriter.render(suite)).getDocumentElement();
        assertThat(root.getAttribute("timestamp")).isEqualTo("2026-03-04T05:06:07");
        assertThat(root.getAttribute("hostname")).isEqualTo("agent-7");
        assertThat(((Element) root.getElementsByTagName("failure").item(0)).getAttribute("message")).isEqualTo("rss: measured 9 KB, ceiling 5 KB");
        assertThat(new TestSuiteReport("s", "c", 0, List.of()).hostname()).isNotBlank();
    }

    @Test
    void aMessageNamesItsTypeSinceJenkinsShowsOnlyTheMessage() {
        assertThat(JUnitXmlWriter.naming("exit: 0 -> 1; stdout_sha256: a -> b", "exit")).isEqualTo("exit: 0 -> 1; stdout_sha256: a -> b");
        assertThat(JUnitXmlWriter.naming("exit: 0 -> 1; stdout_sha256: a -> b", "stdout_sha256"))
                .as("named among the fields, not only first").isEqualTo("exit: 0 -> 1; stdout_sha256: a -> b");
        assertThat(JUnitXmlWriter.naming("exit: 0 -> 1", "sanitizer")).isEqualTo("sanitizer: exit: 0 -> 1");
        assertThat(JUnitXmlWriter.naming("reference=<2> candidate=<1> golden=<2>", "candidate_regression"))
                .isEqualTo("candidate_regression: reference=<2> candidate=<1> golden=<2>");
        assertThat(JUnitXmlWriter.naming("added [x], removed []", "case_set_drift")).isEqualTo("case_set_drift: added [x], removed []");
        assertThat(JUnitXmlWriter.naming("a user_cpu: figure", "user_cpu")).isEqualTo("user_cpu: a user_cpu: figure");
        assertThat(JUnitXmlWriter.naming(null, "rss")).isEqualTo("rss");
        assertThat(JUnitXmlWriter.naming("text", null)).isEqualTo("text");
    }

    @Test
    void hostileOutputStillParsesAndKeepsItsText() throws Exception {
        String hostile = "nul\u0000 esc\u001B[31mred\u001B[0m bad\uFFFE cdata]]>end";
        TestSuiteReport suite = new TestSuiteReport("s", "c", 0, List.of(
                CaseOutcome.failed("id]]>\u0000", 0, "stdout_sha256", hostile, hostile, hostile, hostile)));
        Document doc = parse(JUnitXmlWriter.render(suite));
        String out = doc.getElementsByTagName("system-out").item(0).getTextContent();
        assertThat(out).isEqualTo("nul\uFFFD escred bad\uFFFD cdata]]>end");
        assertThat(((Element) doc.getElementsByTagName("testcase").item(0)).getAttribute("name")).isEqualTo("id]]>\uFFFD");
    }

    @Test
    void timesUseADotWhateverTheDefaultLocale() {
        Locale previous = Locale.getDefault();
        Locale.setDefault(Locale.GERMANY);
        try {
            String xml = JUnitXmlWriter.render(new TestSuiteReport("s", "c", 1.25, List.of(CaseOutcome.passed("a", 0.5, null, null))));
            assertThat(xml).contains("time=\"1.250\"").contains("time=\"0.500\"").doesNotContain("1,250");
        } finally {
            Locale.setDefault(previous);
        }
    }

    @Test
    void anEmptySuiteStillHasOneTestCase() throws Exception {
        Document doc = parse(JUnitXmlWriter.render(new TestSuiteReport("s", "c", 0, List.of())));
        assertThat(doc.getElementsByTagName("testcase").getLength()).isEqualTo(1);
        assertThat(doc.getElementsByTagName("skipped").getLength()).isEqualTo(1);
        assertThat(doc.getDocumentElement().getAttribute("skipped")).isEqualTo("1");
    }

    @Test
    void capsLongStreams() throws Exception {
        String big = "x".repeat(100_000);
        Document doc = parse(JUnitXmlWriter.render(new TestSuiteReport("s", "c", 0, List.of(CaseOutcome.passed("a", 0, big, null)))));
        String out = doc.getElementsByTagName("system-out").item(0).getTextContent();
        assertThat(out.length()).isLessThan(JUnitXmlWriter.MAX_STREAM_CHARS + 200);
        assertThat(out).contains("characters cut");
    }

    @Test
    void replacesTheFileAtomically(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("reports/TEST-x.xml");
        JUnitXmlWriter.write(new TestSuiteReport("s", "c", 0, List.of(CaseOutcome.passed("a", 0, null, null))), file);
        JUnitXmlWriter.write(new TestSuiteReport("s", "c", 0, List.of(CaseOutcome.passed("b", 0, null, null))), file);
        assertThat(Files.readString(file)).contains("name=\"b\"").doesNotContain("name=\"a\"");
        assertThat(dir.resolve("reports").toFile().list()).containsExactly("TEST-x.xml");
    }
}
