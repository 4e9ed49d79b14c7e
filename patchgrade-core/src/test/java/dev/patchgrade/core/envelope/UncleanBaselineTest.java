package dev.patchgrade.core.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Suggestions;
import dev.patchgrade.core.host.HostInfo;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A known-good command that did not finish cleanly says how it ended, what it printed last, and what the sandbox has to say. */
class UncleanBaselineTest {
    private static EnvelopeRun exited(int code, String stderr) {
        return new EnvelopeRun(code, null, false, false, 3000L, 1000L, 100L, 20, 10L, 0L, 0L, 0L, "x", "", stderr);
    }

    @Test
    void theMessageGivesTheExitStatusTheLastLinesOfStderrAndTheHintOnce() {
        String stderr = "line 1\nline 2\nline 3\nline 4\nline 5\nlua: cannot open src/test/patchgrade/workload/bench.lua\n";
        PatchgradeException error = catchThrowableOfType(PatchgradeException.class, () -> EnvelopeRecording.of(List.of("lua", "bench.lua"), 5,
                List.of(exited(1, stderr)), Slack.DEFAULT, HostInfo.detect(null), null,
                text -> "\nhint: the sandbox does not show src/test/patchgrade/workload/bench.lua"));
        String message = error.message(Suggestions.PLAIN);
        assertThat(message).contains("exit 1").contains("stderr ends with:").contains("lua: cannot open src/test/patchgrade/workload/bench.lua")
                .doesNotContain("line 1").contains("hint: the sandbox does not show").doesNotContain("raise");
        assertThat(message.indexOf("cannot open")).as("the stderr line is shown once").isEqualTo(message.lastIndexOf("cannot open"));
    }

    @Test
    void aTimedOutRunPointsToTheTimeoutAndAnEmptyStderrSaysSo() {
        EnvelopeRun timedOut = new EnvelopeRun(null, null, true, false, 3000L, 1000L, 100L, 5000, 10L, 0L, 0L, 0L, null, "", "");
        PatchgradeException error = catchThrowableOfType(PatchgradeException.class, () -> EnvelopeRecording.of(List.of("slow"), 5,
                List.of(timedOut), Slack.DEFAULT, HostInfo.detect(null), null));
        assertThat(error.message(Suggestions.PLAIN)).contains("timed out").contains("stderr was empty").contains("timeout");
    }
}
