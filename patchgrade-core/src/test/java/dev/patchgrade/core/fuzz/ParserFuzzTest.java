package dev.patchgrade.core.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.cases.CasesFile;
import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.classify.Comparison;
import dev.patchgrade.core.digest.GoldStore;
import dev.patchgrade.core.digest.TimeBuckets;
import dev.patchgrade.core.envelope.EnvelopeFile;
import dev.patchgrade.core.report.JUnitXmlWriter;
import dev.patchgrade.core.report.CaseOutcome;
import dev.patchgrade.core.report.TestSuiteReport;
import dev.patchgrade.core.report.XmlText;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Fuzzes every parser of user-written files and the XML sanitiser: whatever the input, the only
 * exception is the project's own input error, and sanitised text always makes well-formed XML.
 * Inputs are built from the tokens the formats use, so the generators reach deep into the parsers.
 */
class ParserFuzzTest {
    private static Path dir;

    @BeforeContainer
    static void createDirectory() throws IOException {
        dir = Files.createTempDirectory("patchgrade-fuzz-");
    }

    @AfterContainer
    static void removeDirectory() throws IOException {
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Provide
    Arbitrary<String> jsonish() {
        Arbitrary<String> tokens = Arbitraries.oneOf(
                Arbitraries.of("{", "}", "[", "]", ",", ":", "\"", "null", "true", "false", "-", "0", "5", "1e99", "1.5", "\"8M\"",
                        "\"cmd\"", "\"timeout_s\"", "\"max_rss_kb\"", "\"max_user_us\"", "\"notes\"", "\"host\"", "\"class\"", "\"max_wall_ms\"",
                        "\"case\"", "\"exit\"", "\"stdout_sha256\"", "\"stderr_sha256\"", "\"sanitizer\"", "\"time_bucket\"", "\"clean\"", "\"lt_50ms\"",
                        "\"normalize\"", "\"pattern\"", "\"id\"", "\"args\"", "\"stdin\"", "\"golden\"", "\"toolchain\"", "\n", " ", "\\u0000", "\\",
                        "\"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\"", "9223372036854775808", "-1"),
                Arbitraries.strings().ofMaxLength(6));
        return tokens.list().ofMaxSize(40).map(parts -> String.join("", parts));
    }

    @Provide
    Arbitrary<String> anyText() {
        return Arbitraries.strings().withCharRange('\u0000', '\uFFFF').ofMaxLength(200);
    }

    @Property(tries = 600)
    void envelopeParserOnlyThrowsInputErrors(@ForAll("jsonish") String text) {
        try {
            EnvelopeFile.parse(Path.of("envelope.json"), text.getBytes(StandardCharsets.UTF_8));
        } catch (PatchgradeException expected) {
            assertThat(expected.getMessage()).startsWith("envelope.json: ");
        }
    }

    @Property(tries = 400)
    void casesParserOnlyThrowsInputErrors(@ForAll("jsonish") String text, @ForAll boolean jsonLines) throws IOException {
        Path file = dir.resolve(jsonLines ? "cases.jsonl" : "cases.txt");
        Files.writeString(file, text);
        try {
            assertThat(CasesFile.read(file, false)).isNotEmpty();
        } catch (PatchgradeException expected) {
            assertThat(expected.getMessage()).startsWith(file.toString());
        }
    }

    @Property(tries = 400)
    void goldParserOnlyThrowsInputErrors(@ForAll("jsonish") String text) throws IOException {
        Path gold = Files.createDirectories(dir.resolve("gold"));
        Files.writeString(gold.resolve("case.json"), text);
        try {
            GoldStore.read(gold, TimeBuckets.parse(null));
        } catch (PatchgradeException expected) {
            assertThat(expected.getMessage()).contains(gold.toString());
        }
    }

    @Property(tries = 300)
    void parameterParsersOnlyThrowInputErrors(@ForAll("anyText") String text) {
        for (Runnable parse : List.<Runnable>of(() -> Comparison.parse(text), () -> Shard.parse(text), () -> TimeBuckets.parse(text))) {
            try {
                parse.run();
            } catch (PatchgradeException expected) {
                assertThat(expected.errorName()).isEqualTo("bad_parameter");
            }
        }
    }

    @Property(tries = 1000)
    void sanitisedTextIsAlwaysWellFormedXml(@ForAll("anyText") String text) throws Exception {
        String xml = "<a b=\"" + XmlText.attribute(text) + "\" c=\"" + XmlText.attribute(XmlText.oneLine(text)) + "\">"
                + XmlText.cdata(text) + "</a>";
        DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    @Property(tries = 300)
    void junitReportsOfAnyTextAreWellFormed(@ForAll("anyText") String name, @ForAll("anyText") String message,
            @ForAll("anyText") String output) throws Exception {
        String xml = JUnitXmlWriter.render(new TestSuiteReport(name, name, 0.5, List.of(
                CaseOutcome.failed(name, 0.1, message, message, output, output, output),
                CaseOutcome.error(name, message, message, output),
                CaseOutcome.passed(name, 0, output, output))));
        var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        assertThat(doc.getElementsByTagName("testcase").getLength()).isEqualTo(3);
    }
}
