package dev.patchgrade.core.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.host.HostInfo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EnvelopeFileTest {
    private static final Path FILE = Path.of("src/test/patchgrade/envelope.json");

    private static Envelope parse(String json) {
        return EnvelopeFile.parse(FILE, json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void readsTheSeedFormatWithOnlyTheFiveBasicKeys() {
        Envelope envelope = parse("""
                {
                  "cmd": ["./driver"],
                  "timeout_s": 5,
                  "max_rss_kb": 8192,
                  "max_user_us": 800000,
                  "notes": "Illustrative Linux ceilings for this driver. Re-record on the eval host."
                }""");
        assertThat(envelope.cmd()).containsExactly("./driver");
        assertThat(envelope.timeoutSeconds()).isEqualTo(5.0);
        assertThat(envelope.ceilings()).containsOnlyKeys(Ceiling.RSS, Ceiling.USER_CPU)
                .containsEntry(Ceiling.RSS, 8192L).containsEntry(Ceiling.USER_CPU, 800_000L);
        assertThat(envelope.host()).isNull();
        assertThat(envelope.toolchain()).isNull();
    }

    @Test
    void readsOptionalCeilingsAndIgnoresUnknownKeys() {
        Envelope envelope = parse("""
                {"timeout_s": 0.5, "max_rss_kb": 1, "max_user_us": 2, "max_sys_us": 3, "max_wall_ms": 4, "max_minflt": 5,
                 "max_majflt": 0, "max_inblock": 7, "max_oublock": 8, "owner": {"team": "payments"}}""");
        assertThat(envelope.ceilings()).hasSize(8).containsEntry(Ceiling.MAJFLT, 0L).containsEntry(Ceiling.OUBLOCK, 8L);
        assertThat(envelope.timeoutSeconds()).isEqualTo(0.5);
        assertThat(envelope.cmd()).isEmpty();
    }

    @Test
    void roundTripsARecordedFile() throws Exception {
        HostInfo host = new HostInfo("linux", "amd64", "AMD EPYC", 2, "linux-amd64-amd-epyc-2c");
        EnvelopeRun run = new EnvelopeRun(0, null, false, false, 3000L, 80_000L, 1000L, 90, 150L, 0L, 0L, 8L, "x", "", "");
        EnvelopeRecording recording = EnvelopeRecording.of(List.of("target/bin/driver", "scan"), 5, List.of(run), Slack.DEFAULT, host, "g++ 12");
        ObjectNode json = EnvelopeFile.recorded(recording);
        Envelope back = EnvelopeFile.parse(FILE, json.toString().getBytes(StandardCharsets.UTF_8));
        assertThat(back.ceilings()).containsEntry(Ceiling.RSS, 3000L * 13 / 10 + 1024).containsEntry(Ceiling.USER_CPU, 120_000L + 50_000);
        assertThat(back.host()).isEqualTo(host);
        assertThat(back.toolchain()).isEqualTo("g++ 12");
        assertThat(json.get("timeout_s").isIntegralNumber()).isTrue();
        assertThat(json.at("/measured/max_rss_kb").asLong()).isEqualTo(3000);
        assertThat(json.at("/slack/rss_percent").asInt()).isEqualTo(30);
        assertThat(json.at("/measured/runs").size()).isEqualTo(1);
    }

    /** The tree's memory peak is recorded wherever every run measured it: what a hostile tree keeps out of max_rss_kb. */
    @Test
    void recordsTheTreeCeilingWhereEveryRunMeasuredIt() throws Exception {
        HostInfo host = new HostInfo("linux", "amd64", "AMD EPYC", 2, "linux-amd64-amd-epyc-2c");
        EnvelopeRun small = new EnvelopeRun(0, null, false, false, 3000L, 80_000L, 1000L, 90, 150L, 0L, 0L, 8L, "x", "", "", 4000L, 0);
        EnvelopeRun large = new EnvelopeRun(0, null, false, false, 3100L, 81_000L, 1000L, 90, 150L, 0L, 0L, 8L, "x", "", "", 5000L, 0);
        EnvelopeRun unmeasured = new EnvelopeRun(0, null, false, false, 3000L, 80_000L, 1000L, 90, 150L, 0L, 0L, 8L, "x", "", "", null, 0);
        EnvelopeRecording both = EnvelopeRecording.of(List.of("./driver"), 5, List.of(small, large), Slack.DEFAULT, host, null);
        Envelope back = EnvelopeFile.parse(FILE, EnvelopeFile.recorded(both).toString().getBytes(StandardCharsets.UTF_8));
        assertThat(back.ceilings()).containsEntry(Ceiling.TREE_RSS, 5000L * 13 / 10 + 1024);
        assertThat(EnvelopeFile.recorded(both).at("/measured/tree_rss_kb").asLong()).isEqualTo(5000);
        EnvelopeRecording partly = EnvelopeRecording.of(List.of("./driver"), 5, List.of(small, unmeasured), Slack.DEFAULT, host, null);
        assertThat(partly.ceilings()).doesNotContainKey(Ceiling.TREE_RSS);
        assertThat(EnvelopeFile.recorded(partly).has("max_tree_rss_kb")).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "string ceiling  | {\"timeout_s\":5,\"max_rss_kb\":\"8M\",\"max_user_us\":1}  | key \"max_rss_kb\" must be a non-negative whole number (KB) (found \"8M\")",
        "negative        | {\"timeout_s\":5,\"max_rss_kb\":-1,\"max_user_us\":1}     | key \"max_rss_kb\" must be a non-negative whole number (KB) (found -1)",
        "fraction        | {\"timeout_s\":5,\"max_rss_kb\":1,\"max_user_us\":1.5}    | key \"max_user_us\" must be a non-negative whole number (us) (found 1.5)",
        "zero timeout    | {\"timeout_s\":0,\"max_rss_kb\":1,\"max_user_us\":1}      | key \"timeout_s\" must be a number of seconds from 0.001 to 86400 (one day) (found 0)",
        "missing timeout | {\"max_rss_kb\":1,\"max_user_us\":1}                     | key \"timeout_s\" is missing",
        "missing rss     | {\"timeout_s\":5,\"max_user_us\":1}                      | key \"max_rss_kb\" is missing",
        "cmd string      | {\"cmd\":\"./driver\",\"timeout_s\":5,\"max_rss_kb\":1,\"max_user_us\":1} | key \"cmd\" must be a non-empty array of strings",
        "cmd number      | {\"cmd\":[1],\"timeout_s\":5,\"max_rss_kb\":1,\"max_user_us\":1} | key \"cmd\" must hold only strings (found 1)",
        "array root      | []                                                       | must hold one JSON object",
        "notes number    | {\"timeout_s\":5,\"max_rss_kb\":1,\"max_user_us\":1,\"notes\":3} | key \"notes\" must be a string",
        "host string     | {\"timeout_s\":5,\"max_rss_kb\":1,\"max_user_us\":1,\"host\":\"x\"} | key \"host\" must be an object",
    })
    void namesTheFileTheKeyAndTheBadValue(String name, String json, String expected) {
        assertThatThrownBy(() -> parse(json))
                .isInstanceOf(EnvelopeFormatException.class)
                .hasMessageStartingWith(FILE + ": ")
                .hasMessageContaining(expected)
                .extracting(e -> ((PatchgradeException) e).errorName()).isEqualTo("malformed_envelope");
    }

    @Test
    void malformedJsonNamesTheLine() {
        assertThatThrownBy(() -> parse("{\n  \"timeout_s\": 5,\n  \"max_rss_kb\": 8192,,\n}"))
                .isInstanceOf(EnvelopeFormatException.class)
                .hasMessageContaining("not valid JSON at line 3");
    }

    @Test
    void aMissingFileSaysHowToRecordOne() {
        assertThatThrownBy(() -> EnvelopeFile.read(Path.of("does/not/exist.json")))
                .hasMessageContaining("does/not/exist.json").hasMessageContaining("record-envelope");
    }
}
