package dev.patchgrade.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/** The XML and JSON reports written case by case: what they say read back, and that they hold nothing per case. */
class StreamingReportsTest {
    @TempDir
    Path dir;

    record Row(String id, String verdict) {}

    record Head(String goal, String verdict, long graded) {}

    @Test
    void casesAddedOneByOneReadBackWithTheCountsInTheHead() throws Exception {
        Path xml = dir.resolve("TEST-x.xml");
        Path json = dir.resolve("x.json");
        try (ExecutionReport report = new ExecutionReport(xml, json, "cases", "m.patchgrade.digest.e", "m.patchgrade.digest.e",
                Map.of("patchgrade.sandbox", "off"))) {
            report.add(CaseOutcome.passed("a", 0.25, "out", ""), new Row("a", "pass"));
            report.add(CaseOutcome.failed("b", 0.5, "exit", "exit: 0 -> 1", "details", "", "err"), new Row("b", "fail"));
            report.add(CaseOutcome.error("c", "oracle_tampered", "changed", null), new Row("c", "error"));
            assertThat(report.finish(1.5, new Head("digest", "fail", 3)).testsRunLine())
                    .isEqualTo("Tests run: 3, Failures: 1, Errors: 1, Skipped: 0, Time elapsed: 1.500 s - in m.patchgrade.digest.e");
        }
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(xml.toFile());
        Element suite = doc.getDocumentElement();
        assertThat(suite.getAttribute("tests")).isEqualTo("3");
        assertThat(suite.getAttribute("failures")).isEqualTo("1");
        assertThat(suite.getAttribute("errors")).isEqualTo("1");
        assertThat(doc.getElementsByTagName("testcase").getLength()).isEqualTo(3);
        assertThat(((Element) doc.getElementsByTagName("failure").item(0)).getAttribute("message")).isEqualTo("exit: 0 -> 1");
        JsonNode report = JsonReports.MAPPER.readTree(json.toFile());
        assertThat(report.path("goal").asText()).isEqualTo("digest");
        assertThat(report.path("graded").asLong()).isEqualTo(3);
        assertThat(report.path("cases")).hasSize(3);
        assertThat(report.path("cases").path(1).path("verdict").asText()).isEqualTo("fail");
        assertThat(Files.readString(json)).as("the head comes before the rows").startsWith("{\n  \"goal\" : \"digest\"");
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("TEST-x.xml", "x.json", ExecutionSummary.DIRECTORY);
        }
        try (var records = Files.list(dir.resolve(ExecutionSummary.DIRECTORY))) {
            assertThat(records.map(p -> p.getFileName().toString())).as("the summary record, and no temporary file").containsExactly("x.json");
        }
    }

    @Test
    void anUnfinishedReportLeavesNoFileBehind() throws Exception {
        try (ExecutionReport report = new ExecutionReport(dir.resolve("TEST-y.xml"), dir.resolve("y.json"), "rows", "s", "c", Map.of())) {
            report.add(CaseOutcome.passed("a", 0, null, null), new Row("a", "pass"));
        }
        try (var files = Files.list(dir)) {
            assertThat(files.toList()).isEmpty();
        }
    }

    @Test
    void aSuiteWithoutCasesSaysNothingWasGraded() throws Exception {
        Path xml = dir.resolve("TEST-z.xml");
        try (ExecutionReport report = new ExecutionReport(xml, dir.resolve("z.json"), "cases", "s", "c", Map.of())) {
            report.finish(0, new Head("digest", "pass", 0));
        }
        assertThat(Files.readString(xml)).contains("tests=\"1\"", "skipped=\"1\"", "name=\"no cases\"");
        assertThat(JsonReports.MAPPER.readTree(dir.resolve("z.json").toFile()).path("cases")).isEmpty();
    }

    /** Many cases with large excerpts through both writers in a JVM whose heap is far smaller than the cases together. */
    @Test
    void fiftyThousandCasesGoThroughASmallHeap() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-Xmx24m", "-cp", System.getProperty("java.class.path"), ManyCases.class.getName(),
                dir.toString(), "50000").redirectErrorStream(true).redirectOutput(dir.resolve("child.log").toFile()).start();
        assertThat(child.waitFor(300, TimeUnit.SECONDS)).as("the writer finished").isTrue();
        assertThat(child.exitValue()).as(Files.readString(dir.resolve("child.log"))).isZero();
        assertThat(Files.size(dir.resolve("TEST-many.xml"))).as("more than the child's heap went through").isGreaterThan(60L << 20);
        assertThat(Files.readString(dir.resolve("child.log"))).contains("Tests run: 50000, Failures: 5000");
    }

    /** The child of {@link #fiftyThousandCasesGoThroughASmallHeap}. */
    public static final class ManyCases {
        public static void main(String[] args) {
            Path dir = Path.of(args[0]);
            int cases = Integer.parseInt(args[1]);
            String excerpt = "x".repeat(1024);
            try (ExecutionReport report = new ExecutionReport(dir.resolve("TEST-many.xml"), dir.resolve("many.json"), "cases", "many", "many",
                    Map.of())) {
                for (int i = 0; i < cases; i++) {
                    String id = "case-" + i;
                    CaseOutcome outcome = i % 10 == 0 ? CaseOutcome.failed(id, 0.001, "exit", "exit: 0 -> 1", excerpt, excerpt, excerpt)
                            : CaseOutcome.passed(id, 0.001, excerpt, excerpt);
                    report.add(outcome, new Row(id, outcome.passed() ? "pass" : "fail"));
                }
                System.out.println(report.finish(1, new Head("digest", "fail", cases)).testsRunLine());
            }
            File json = dir.resolve("many.json").toFile();
            if (json.length() < (long) cases * 20) {
                throw new AssertionError("the JSON report lost rows: " + json.length() + " bytes");
            }
        }
    }
}
