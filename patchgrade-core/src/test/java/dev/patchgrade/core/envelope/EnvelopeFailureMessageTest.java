package dev.patchgrade.core.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.grade.GoalSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

/**
 * Jenkins shows a failure's message, never its type: an envelope that breaks several ceilings names
 * each one in the message, with its figures, the first one included.
 */
class EnvelopeFailureMessageTest {
    @TempDir
    Path dir;

    private static EnvelopeRun run(Integer exit, String signal) {
        return new EnvelopeRun(exit, signal, false, false, 900L, 475_007L, 300L, 42, 120L, 0L, null, 8L, "ab12", "out", "err");
    }

    private Envelope envelope() {
        Map<Ceiling, Long> ceilings = new EnumMap<>(Ceiling.class);
        ceilings.put(Ceiling.RSS, 100_000L);
        ceilings.put(Ceiling.INSTRUCTIONS, 532_635_202L);
        ceilings.put(Ceiling.USER_CPU, 99_862L);
        return new Envelope(dir.resolve("envelope.json"), List.of("./a"), 5, ceilings, null, null, null, "valgrind");
    }

    private String xmlMessage(EnvelopeVerdict verdict) throws Exception {
        GoalSettings settings = new GoalSettings("envelope", "e", dir.resolve("reports"), dir.resolve("out"), dir, Map.of());
        EnvelopeGrading.report(new dev.patchgrade.core.grade.GoalReports(settings, dev.patchgrade.core.report.EnvelopeSection::new), settings, Shard.ALL, new EnvelopeResult("a", List.of("/bin/a"), envelope(), verdict, null, 1.0), GradeLog.SILENT);
        Element failure = (Element) DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(settings.xmlReport().toFile())
                .getElementsByTagName("failure").item(0);
        assertThat(failure.getAttribute("type")).isEqualTo(verdict.reasons().get(0));
        return failure.getAttribute("message");
    }

    @Test
    void everyBrokenCeilingIsNamedWithItsFigures() throws Exception {
        EnvelopeVerdict verdict = new EnvelopeVerdict(List.of("instructions", "user_cpu"), List.of(
                new EnvelopeVerdict.Breach(Ceiling.INSTRUCTIONS, 4_134_691_725L, 532_635_202L),
                new EnvelopeVerdict.Breach(Ceiling.USER_CPU, 475_007L, 99_862L)), Map.of(), List.of(run(0, null)), List.of());
        String expected = "instructions: 4,134,691,725 > 532,635,202 (+676%); user_cpu: 475,007 us > 99,862 us (+376%)";
        assertThat(EnvelopeText.failureMessage(verdict, envelope())).isEqualTo(expected);
        assertThat(xmlMessage(verdict)).isEqualTo(expected);
    }

    @Test
    void anExitOrASignalIsNamedBesideTheCeilings() throws Exception {
        EnvelopeVerdict exited = new EnvelopeVerdict(List.of("exit_3", "signal_SIGSEGV", "user_cpu"), List.of(
                new EnvelopeVerdict.Breach(Ceiling.USER_CPU, 475_007L, 99_862L)), Map.of(), List.of(run(3, null), run(null, "SIGSEGV")), List.of());
        assertThat(xmlMessage(exited)).isEqualTo("exit_3: the command exited with 3; signal_SIGSEGV: the command was killed by SIGSEGV; "
                + "user_cpu: 475,007 us > 99,862 us (+376%)");
    }

    @Test
    void theTestcaseIsNamedByTheExecutionAndTheJsonHeadHasWorstAndShard() throws Exception {
        EnvelopeVerdict verdict = new EnvelopeVerdict(List.of("user_cpu"), List.of(new EnvelopeVerdict.Breach(Ceiling.USER_CPU, 475_007L, 99_862L)),
                Map.of(), List.of(run(0, null)), List.of());
        GoalSettings settings = new GoalSettings("envelope", "e", dir.resolve("reports"), dir.resolve("out"), dir, Map.of());
        EnvelopeGrading.report(new dev.patchgrade.core.grade.GoalReports(settings, dev.patchgrade.core.report.EnvelopeSection::new), settings, new Shard(2, 3), new EnvelopeResult("/work/job-41/target/a cache", List.of("/work/job-41/target/a", "cache"), envelope(), verdict, null, 1.0), GradeLog.SILENT);
        Element testcase = (Element) DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(settings.xmlReport().toFile())
                .getElementsByTagName("testcase").item(0);
        assertThat(testcase.getAttribute("name")).isEqualTo("e");
        assertThat(testcase.getElementsByTagName("failure").item(0).getTextContent()).startsWith("command: /work/job-41/target/a cache\n");
        com.fasterxml.jackson.databind.JsonNode json = dev.patchgrade.core.report.JsonReports.MAPPER.readTree(settings.jsonReport().toFile());
        assertThat(json.path("worst").asText()).isEqualTo("user_cpu");
        assertThat(json.path("shard").asText()).isEqualTo("2/3");
    }
}
