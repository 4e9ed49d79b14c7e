package dev.patchgrade.core.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.patchgrade.core.Suggestions;
import dev.patchgrade.core.host.HostInfo;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The spread of the recorded runs, written into the envelope, and the advice where the slack dwarfs it. */
class SpreadTest {
    private static final HostInfo HOST = new HostInfo("linux", "amd64", "AMD EPYC", 2, "linux-amd64-amd-epyc-2c");

    private static EnvelopeRun run(long rssKb, long userMicros) {
        return new EnvelopeRun(0, null, false, false, rssKb, userMicros, 3_000L, 90, 150L, 0L, 0L, 8L, "x", "", "");
    }

    @Test
    void theEnvelopeRecordsHowMuchEachFigureVariedBetweenTheRuns() {
        EnvelopeRecording recording = EnvelopeRecording.of(List.of("/bin/true"), 5, List.of(run(76_500, 400_000), run(76_523, 460_000),
                run(76_510, 420_000)), Slack.DEFAULT, HOST, null);
        JsonNode spread = EnvelopeFile.recorded(recording).path("spread");
        assertThat(spread.path("runs").asInt()).isEqualTo(3);
        assertThat(spread.path("max_rss_kb").toString()).isEqualTo("{\"min\":76500,\"max\":76523,\"percent\":0.03}");
        assertThat(spread.path("user_us").toString()).isEqualTo("{\"min\":400000,\"max\":460000,\"percent\":15.0}");
        JsonNode one = EnvelopeFile.recorded(EnvelopeRecording.of(List.of("/bin/true"), 5, List.of(run(1, 1)), Slack.DEFAULT, HOST, null));
        assertThat(one.has("spread")).as("one run has no spread").isFalse();
    }

    @Test
    void aSlackThatDwarfsTheSpreadIsNamedWithItsHeadroomAndTheSettingThatNarrowsIt() {
        EnvelopeRecording recording = EnvelopeRecording.of(List.of("/bin/true"), 5, List.of(run(76_500, 400_000), run(76_523, 460_000)),
                Slack.DEFAULT, HOST, null);
        assertThat(Spread.advice(recording, Suggestions.PLAIN)).containsExactly("peak RSS varied 0.03% over the 2 runs (76,500 KB to "
                + "76,523 KB), but the ceiling 100,504 KB leaves 31.3% headroom over the largest: a patch that adds up to 23,981 KB passes. To "
                + "narrow it, set the rssSlackPercent setting (e.g. rssSlackPercent=3) and the rssSlackKb setting, and re-record");
        EnvelopeRecording narrow = EnvelopeRecording.of(List.of("/bin/true"), 5, List.of(run(76_500, 400_000), run(76_523, 460_000)),
                new Slack(3, 0, 50, 50_000), HOST, null);
        assertThat(Spread.advice(narrow, Suggestions.PLAIN)).isEmpty();
    }
}
