package dev.patchgrade.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.patchgrade.core.Fixtures;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.digest.DigestGoal;
import dev.patchgrade.core.digest.Sanitizer;
import dev.patchgrade.core.digest.TimeBuckets;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalSettings;
import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.xml.XMLConstants;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.SchemaFactory;
import org.apache.maven.plugin.surefire.log.api.NullConsoleLogger;
import org.apache.maven.plugins.surefire.report.ReportTestCase;
import org.apache.maven.plugins.surefire.report.ReportTestSuite;
import org.apache.maven.plugins.surefire.report.TestSuiteXmlParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A digest of a candidate whose output holds NUL, an ANSI escape, U+FFFE, invalid UTF-8 and a CDATA
 * terminator, graded for real; its JUnit XML must satisfy the surefire XSD, surefire's own report
 * parser and Debian's junitparser, with the expected counts and failure types.
 */
class JenkinsConsumersTest {
    /** One bucket below a minute: these tests are about other fields, and a loaded CI machine must not move them. */
    private static final String WIDE_BUCKET = "60000";

    @TempDir
    static Path dir;
    static Path xml;

    @BeforeAll
    static void gradeAHostileCandidate() throws Exception {
        Path cases = Files.writeString(dir.resolve("cases.jsonl"), """
                {"id":"calm","args":["calm"]}
                {"id":"loud]]>\\u001b[1m","args":["loud"]}
                {"id":"quiet","args":["quiet"]}
                """);
        GoalSettings record = new GoalSettings("digest", "hostile", dir.resolve("reports"), dir.resolve("out"), dir, Map.of());
        GoalSettings grade = new GoalSettings("digest", "hostile", dir.resolve("reports"), dir.resolve("out"), dir,
                Map.of("HOSTILE_VARIANT", "changed"));
        DigestGoal.record(options(record, cases), GradeLog.SILENT);
        GoalResult result = DigestGoal.grade(options(grade, cases), GradeLog.SILENT);
        assertThat(result.failures()).hasSize(1);
        xml = grade.xmlReport();

        // The same hostile output through the other two goals, into the same reports directory.
        GoalSettings envelopeSettings = new GoalSettings("envelope", "hostile", dir.resolve("reports"), dir.resolve("out"), dir, Map.of());
        Path envelope = Files.writeString(dir.resolve("envelope.json"), "{\"timeout_s\": 5, \"max_rss_kb\": 1, \"max_user_us\": 1}");
        assertThat(dev.patchgrade.core.envelope.EnvelopeGoal.grade(dev.patchgrade.core.envelope.EnvelopeGoal.grading(envelopeSettings)
                .envelope(envelope).command(List.of(Fixtures.command("hostile_output"), "loud"))
                .hostCheck(dev.patchgrade.core.envelope.HostCheck.IGNORE).build(), GradeLog.SILENT).failures()).hasSize(1);
        GoalSettings columns = new GoalSettings("three-column", "hostile", dir.resolve("reports"), dir.resolve("out"), dir, Map.of());
        Path sidecar = dir.resolve("reference.sha256");
        dev.patchgrade.core.classify.ThreeColumnGoal.freeze(columns, List.of(Fixtures.command("crash")), sidecar, false, GradeLog.SILENT);
        Path rows = Files.writeString(dir.resolve("rows.jsonl"), "{\"id\":\"loud]]>\",\"args\":[\"exit:0\"],\"golden\":\"x\\u0000]]>\"}\n");
        assertThat(dev.patchgrade.core.classify.ThreeColumnGoal.grade(dev.patchgrade.core.classify.ThreeColumnGoal.builder(columns)
                .cases(rows).reference(List.of(Fixtures.command("crash"))).candidate(List.of(Fixtures.command("hostile_output"), "loud"))
                .referenceDigest(sidecar).parallel(1).build(), GradeLog.SILENT).failures()).hasSize(1);
    }

    private static List<Path> allReports() throws Exception {
        try (var files = Files.list(dir.resolve("reports"))) {
            return files.filter(p -> p.getFileName().toString().startsWith("TEST-")).sorted().toList();
        }
    }

    private static DigestGoal.Options options(GoalSettings settings, Path cases) {
        return DigestGoal.Options.builder(settings)
                .cases(cases)
                .gold(dir.resolve("gold"))
                .command(List.of(Fixtures.command("hostile_output")))
                .timeoutSeconds(5)
                .buckets(TimeBuckets.parse(WIDE_BUCKET))
                .timeBucketReruns(0)
                .parallel(2)
                .force(true)
                .build();
    }

    @Test
    void theRawReportReallyCarriesTheHostileText() throws Exception {
        String text = Files.readString(xml, StandardCharsets.UTF_8);
        assertThat(text).contains("]]]]><![CDATA[>").contains("\uFFFD").doesNotContain("\u0000").doesNotContain("\u001b");
    }

    @Test
    void validatesAgainstTheSurefireXsd() throws Exception {
        Path xsd = Path.of(System.getProperty("patchgrade.surefireXsd", "missing.xsd"));
        assertThat(xsd).as("unpacked from surefire's source release by the build").exists();
        SchemaFactory factory = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
        var validator = factory.newSchema(xsd.toFile()).newValidator();
        assertThat(allReports()).hasSize(3);
        for (Path report : allReports()) {
            // Surefire's XSD predates the suite's timestamp and hostname, which Ant's schema and Jenkins read: check them
            // here and validate the rest.
            String text = Files.readString(report, StandardCharsets.UTF_8);
            assertThat(text).containsPattern("<testsuite [^>]* timestamp=\"\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\" hostname=\"[^\"]+\"");
            String withoutAntAttributes = text.replaceFirst(" timestamp=\"[^\"]*\" hostname=\"[^\"]*\"", "");
            validator.validate(new StreamSource(new java.io.StringReader(withoutAntAttributes)));
        }
    }

    @Test
    void surefiresParserReadsTheEnvelopeAndThreeColumnReportsToo() throws Exception {
        for (Path report : allReports()) {
            List<ReportTestSuite> suites = new TestSuiteXmlParser(new NullConsoleLogger()).parse(report.toString());
            assertThat(suites).as(report.toString()).hasSize(1);
            assertThat(suites.get(0).getNumberOfFailures()).as(report.toString()).isEqualTo(1);
        }
    }

    @Test
    void surefiresReportParserReadsTheCounts() throws Exception {
        List<ReportTestSuite> suites = new TestSuiteXmlParser(new NullConsoleLogger()).parse(xml.toString());
        assertThat(suites).hasSize(1);
        ReportTestSuite suite = suites.get(0);
        assertThat(suite.getNumberOfTests()).isEqualTo(3);
        assertThat(suite.getNumberOfFailures()).isEqualTo(1);
        assertThat(suite.getNumberOfErrors()).isZero();
        ReportTestCase failed = suite.getTestCases().stream().filter(ReportTestCase::hasFailure).findFirst().orElseThrow();
        assertThat(failed.getFailureType()).isEqualTo("stdout_sha256");
        assertThat(failed.getName()).startsWith("loud]]>");
    }

    @Test
    void debiansJunitparserReadsTheCountsAndTypes() throws Exception {
        ExternalTools.require(ExternalTools.junitparser(), "python3-junitparser", "apt-get install python3-junitparser");
        Path script = dir.resolve("junitparser_counts.py");
        try (InputStream in = JenkinsConsumersTest.class.getResourceAsStream("/junitparser_counts.py")) {
            Files.copy(in, script);
        }
        Process process = new ProcessBuilder("/usr/bin/python3", script.toString(), xml.toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        JsonNode seen = JsonReports.MAPPER.readTree(output);
        assertThat(seen.path("tests").asInt()).isEqualTo(3);
        assertThat(seen.path("failures").asInt()).isEqualTo(1);
        assertThat(seen.path("errors").asInt()).isZero();
        assertThat(seen.path("types").get(0).asText()).isEqualTo("stdout_sha256");
        assertThat(seen.path("suites").get(0).asText()).isEqualTo("patchgrade.digest.hostile");
    }

    @Test
    void theHtmlSummaryHoldsNoRawControlCharacters() throws Exception {
        String html = Files.readString(dir.resolve("reports").resolve(HtmlSummary.FILE), StandardCharsets.UTF_8);
        assertThat(html).contains("digest.hostile").contains("FAIL").doesNotContain("\u0000").doesNotContain("\u001b");
    }
}
