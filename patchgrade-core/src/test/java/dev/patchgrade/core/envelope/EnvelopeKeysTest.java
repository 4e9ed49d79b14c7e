package dev.patchgrade.core.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.patchgrade.core.RecordingLog;
import dev.patchgrade.core.grade.ProjectPaths;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A typo must never drop a ceiling, and a timeout outside what can be measured is an error, not an instant verdict. */
class EnvelopeKeysTest {
    private static final Path FILE = Path.of("src/test/patchgrade/envelope.json");

    private final RecordingLog log = new RecordingLog();

    private Envelope parse(String json) {
        return EnvelopeFile.parse(FILE, json.getBytes(StandardCharsets.UTF_8), log, "mvn patchgrade:record-envelope@workload");
    }

    @Test
    void aMisspelledCeilingIsAnErrorNamingTheKey() {
        assertThatThrownBy(() -> parse("{\"timeout_s\":5,\"max_rss_kb\":1,\"max_user_us\":1,\"max_wal_ms\":300}"))
                .isInstanceOf(EnvelopeFormatException.class)
                .hasMessageStartingWith(FILE + ": key \"max_wal_ms\" is not a ceiling patchgrade knows, so the limit it was meant to set "
                        + "would never apply; use one of [")
                .hasMessageContaining("max_rss_kb").hasMessageContaining("max_wall_ms")
                .hasMessageEndingWith("] (fix the spelling, or remove the key)");
    }

    @Test
    void otherUnknownKeysAreIgnoredWithAWarning() {
        Envelope envelope = parse("{\"timeout_s\":5,\"max_rss_kb\":1,\"max_user_us\":1,\"owner\":\"payments\"}");
        assertThat(envelope.ceilings()).hasSize(2);
        assertThat(log.warnings).containsExactly(FILE + ": key \"owner\" is not one patchgrade reads; it is ignored (a ceiling key starts with "
                + "max_, e.g. max_wall_ms)");
    }

    @Test
    void aRecordedFileHasNoUnknownKeys() {
        EnvelopeRun run = new EnvelopeRun(0, null, false, false, 3000L, 80_000L, 1000L, 90, 150L, 0L, 0L, 8L, "x", "", "");
        EnvelopeRecording recording = EnvelopeRecording.of(List.of("target/bin/driver"), 5, List.of(run), Slack.DEFAULT,
                new dev.patchgrade.core.host.HostInfo("linux", "amd64", "cpu", 2, "c"), "g++ 12");
        parse(EnvelopeFile.recorded(recording).toString());
        assertThat(log.warnings).isEmpty();
        // With an instruction count, the file also names the counter that measured it.
        parse(EnvelopeFile.recorded(recording.withInstructions(dev.patchgrade.core.count.InstructionCount.of(548_172_277L, "valgrind"), 2))
                .toString());
        assertThat(log.warnings).isEmpty();
    }

    @Test
    void messagesPrintTheRecordingCommandOfTheExecution() {
        assertThatThrownBy(() -> parse("{\"timeout_s\":5,\"max_user_us\":1}"))
                .hasMessageContaining("(record them with `mvn patchgrade:record-envelope@workload`)");
        assertThatThrownBy(() -> EnvelopeFile.read(Path.of("does/not/exist.json"), log, "mvn patchgrade:record-envelope@workload"))
                .hasMessageContaining("Record one on a known-good build with `mvn patchgrade:record-envelope@workload` and commit it");
    }

    @Test
    void timeoutsTooSmallToMeasureOrTooLargeToBeATimeoutAreErrors() {
        for (String value : List.of("0.0001", "1e300", "-1", "0")) {
            assertThatThrownBy(() -> parse("{\"timeout_s\":" + value + ",\"max_rss_kb\":1,\"max_user_us\":1}"))
                    .as(value)
                    .isInstanceOf(EnvelopeFormatException.class)
                    .hasMessageStartingWith(FILE + ": key \"timeout_s\" must be a number of seconds from 0.001 to 86400 (one day) (found ")
                    .hasMessageEndingWith("); give the wall-clock cap of one run, e.g. \"timeout_s\": 5");
        }
        assertThat(parse("{\"timeout_s\":0.001,\"max_rss_kb\":1,\"max_user_us\":1}").timeoutSeconds()).isEqualTo(0.001);
    }

    @Test
    void aKeyGivenTwiceIsAnError() {
        assertThatThrownBy(() -> parse("{\"timeout_s\":5,\"max_rss_kb\":1,\"max_rss_kb\":2,\"max_user_us\":1}"))
                .hasMessageStartingWith(FILE + ": key \"max_rss_kb\" appears twice at line 1")
                .hasMessageEndingWith("; keep one, since only one value can count");
    }

    @Test
    void theRecordedTimeoutCoversTenTimesTheSlowestRun() {
        assertThat(EnvelopeGoal.recordedTimeout(5, 2_700)).isEqualTo(27);
        assertThat(EnvelopeGoal.recordedTimeout(5, 2_701)).isEqualTo(28);
        assertThat(EnvelopeGoal.recordedTimeout(5, 120)).isEqualTo(5);
        assertThat(EnvelopeGoal.recordedTimeout(30, 2_700)).isEqualTo(30);
    }

    @Test
    void everyPathInsideTheProjectIsRecordedRelativeToIt() {
        Path project = Path.of("/work/lua");
        assertThat(ProjectPaths.portableCommand(List.of("/work/lua/target/lua", "/work/lua/bench/fib.lua", "-e", "/usr/share/dict/words", "x"), project))
                .containsExactly("target/lua", "bench/fib.lua", "-e", "/usr/share/dict/words", "x");
        assertThat(ProjectPaths.portableCommand(List.of("/work/lua/target/lua", "/work/lua"), project)).containsExactly("target/lua", ".");
    }
}
