package dev.patchgrade.core.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.host.HostInfo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kernel splits a run's exact CPU time into user and system time by sampling the mode each timer tick
 * lands in, and a program can steer that: a cheating candidate sat in read(/dev/zero) whenever a tick was
 * due and reported 292 ms user, 964 ms system for 1 s of user work. A recording therefore ceilings both.
 */
class EnvelopeSystemCpuTest {
    private static final Path FILE = Path.of("src/test/patchgrade/envelope.json");
    private static final HostInfo HOST = new HostInfo("linux", "amd64", "AMD EPYC", 2, "linux-amd64-amd-epyc-2c");
    private static final String SHA = "a".repeat(64);

    @TempDir
    Path dir;

    private static EnvelopeRun run(long user, long sys) {
        return new EnvelopeRun(0, null, false, false, 3000L, user, sys, 400, 150L, 0L, 0L, 8L, SHA, "", "");
    }

    private static EnvelopeRecording record(EnvelopeRun... runs) {
        return EnvelopeRecording.of(List.of("target/bin/driver"), 5, List.of(runs), Slack.DEFAULT, HOST, "g++ 12");
    }

    @Test
    void aRecordingWritesMaxSysUsWithTheCpuSlack() {
        EnvelopeRecording recording = record(run(80_000, 3_000));
        // ceil(3,000 x 1.5) + 50,000
        assertThat(recording.ceilings()).containsEntry(Ceiling.SYS_CPU, 54_500L).containsEntry(Ceiling.USER_CPU, 170_000L);
        ObjectNode json = EnvelopeFile.recorded(recording);
        assertThat(json.get("max_sys_us").isIntegralNumber()).isTrue();
        assertThat(json.get("max_sys_us").asLong()).isEqualTo(54_500);
        assertThat(json.at("/measured/sys_us").asLong()).isEqualTo(3_000);
        assertThat(json.at("/slack/cpu_percent").asInt()).isEqualTo(50);
        assertThat(json.at("/slack/cpu_us").asLong()).isEqualTo(50_000);
        Envelope back = EnvelopeFile.parse(FILE, json.toString().getBytes(StandardCharsets.UTF_8));
        assertThat(back.ceilings()).containsEntry(Ceiling.SYS_CPU, 54_500L);
    }

    @Test
    void theSystemCeilingTakesTheWorstRunAndAnyCpuSlack() {
        EnvelopeRecording recording = EnvelopeRecording.of(List.of("./driver"), 5, List.of(run(80_000, 3_000), run(70_000, 7_001), run(90_000, 2_000)),
                new Slack(30, 1024, 20, 1_000), HOST, null);
        // ceil(7,001 x 1.2) = 8,402 (8,401.2 rounded up), + 1,000
        assertThat(recording.ceilings()).containsEntry(Ceiling.SYS_CPU, 9_402L);
        assertThat(recording.worst()).containsEntry(Ceiling.SYS_CPU, 7_001L);
    }

    @Test
    void noEnvelopeIsRecordedWithoutASystemFigure() {
        EnvelopeRun unmeasured = new EnvelopeRun(0, null, false, false, 3000L, 80_000L, null, 90, 150L, 0L, 0L, 8L, SHA, "", "");
        assertThatThrownBy(() -> record(unmeasured))
                .isInstanceOf(PatchgradeException.class).hasMessageContaining("CPU time cannot be measured")
                .extracting(e -> ((PatchgradeException) e).errorName()).isEqualTo("unmeasurable_ceiling");
    }

    /** The cheating candidate's numbers: the honest slow build is rejected for user CPU; hiding it in system time is now rejected too. */
    @Test
    void userTimeMovedIntoSystemTimeBreaksTheRecordedSystemCeiling() {
        // The known-good build: 350 ms user, 3 ms system -> max_user_us 575,000, max_sys_us 54,500.
        Envelope envelope = EnvelopeFile.parse(FILE, EnvelopeFile.recorded(record(run(350_000, 3_000))).toString()
                .getBytes(StandardCharsets.UTF_8));
        assertThat(envelope.ceilings()).containsEntry(Ceiling.USER_CPU, 575_000L).containsEntry(Ceiling.SYS_CPU, 54_500L);

        EnvelopeVerdict same = EnvelopeGrader.grade(envelope, List.of(run(360_000, 4_000)), SHA, List.of());
        assertThat(same.accepted()).as("a build as cheap as the known-good one").isTrue();
        assertThat(same.graded()).containsEntry(Ceiling.SYS_CPU, 4_000L);

        EnvelopeVerdict slow = EnvelopeGrader.grade(envelope, List.of(run(997_000, 3_000)), SHA, List.of());
        assertThat(slow.reasons()).containsExactly("user_cpu");

        // The same 1 s of work, 900 ms of it moved into system time by the tick it sat in a system call for.
        EnvelopeVerdict hidden = EnvelopeGrader.grade(envelope, List.of(run(97_000, 903_000)), SHA, List.of());
        assertThat(hidden.accepted()).isFalse();
        assertThat(hidden.reasons()).containsExactly("sys_cpu");
        assertThat(hidden.breaches()).singleElement().extracting(EnvelopeVerdict.Breach::describe)
                .isEqualTo("sys_cpu: 903,000 us > 54,500 us (+1557%)");

        EnvelopeVerdict measured = EnvelopeGrader.grade(envelope, List.of(run(292_087, 964_288)), SHA, List.of());
        assertThat(measured.reasons()).as("the cheating candidate's reported figures").containsExactly("sys_cpu");
    }

    /** A hand-written file with only the basic keys sets no system ceiling and grades as it did. */
    @Test
    void anEnvelopeWithOnlyTheBasicKeysDoesNotGradeSystemTime() {
        Envelope seed = EnvelopeFile.parse(FILE, "{\"cmd\":[\"./driver\"],\"timeout_s\":5,\"max_rss_kb\":8192,\"max_user_us\":575000,\"notes\":\"\"}"
                .getBytes(StandardCharsets.UTF_8));
        EnvelopeVerdict verdict = EnvelopeGrader.grade(seed, List.of(run(97_000, 903_000)), SHA, List.of());
        assertThat(verdict.accepted()).isTrue();
        assertThat(verdict.graded()).containsOnlyKeys(Ceiling.RSS, Ceiling.USER_CPU);
    }

    @Test
    void theReportsShowTheSystemCeiling() throws Exception {
        Map<Ceiling, Long> ceilings = new EnumMap<>(Ceiling.class);
        ceilings.put(Ceiling.RSS, 8192L);
        ceilings.put(Ceiling.USER_CPU, 575_000L);
        ceilings.put(Ceiling.SYS_CPU, 54_500L);
        Envelope envelope = new Envelope(dir.resolve("envelope.json"), List.of("./driver"), 5, ceilings, null, HOST, null);
        EnvelopeVerdict verdict = EnvelopeGrader.grade(envelope, List.of(run(97_000, 903_000)), SHA, List.of());
        GoalSettings settings = new GoalSettings("envelope", "e", dir.resolve("reports"), dir.resolve("out"), dir, Map.of());
        EnvelopeGrading.report(new dev.patchgrade.core.grade.GoalReports(settings, dev.patchgrade.core.report.EnvelopeSection::new), settings, Shard.ALL, new EnvelopeResult("run", List.of("./driver"), envelope, verdict, null, 1.0), GradeLog.SILENT);

        JsonNode json = new ObjectMapper().readTree(settings.jsonReport().toFile());
        assertThat(json.get("reasons").toString()).isEqualTo("[\"sys_cpu\"]");
        assertThat(json.at("/ceilings/max_sys_us").asLong()).isEqualTo(54_500);
        assertThat(json.at("/measured/sys_us").asLong()).isEqualTo(903_000);
        JsonNode figure = null;
        for (JsonNode one : json.get("figures")) {
            if (one.get("ceiling_key").asText().equals("max_sys_us")) {
                figure = one;
            }
        }
        assertThat(figure).as("a figures entry for max_sys_us").isNotNull();
        assertThat(figure.get("measured").asLong()).isEqualTo(903_000);
        assertThat(figure.get("ceiling").asLong()).isEqualTo(54_500);

        String xml = Files.readString(settings.xmlReport());
        assertThat(xml).contains("type=\"sys_cpu\"").contains("903,000 us &gt; 54,500 us").contains("max_sys_us: measured 903,000, ceiling 54,500");
    }
}
