package dev.patchgrade.core.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.patchgrade.core.PatchgradeException;
import org.junit.jupiter.api.Test;

class SlackTest {
    @Test
    void defaultSlackMatchesTheContract() {
        assertThat(Slack.DEFAULT.rssCeiling(6000)).isEqualTo(6000 * 13 / 10 + 1024);
        assertThat(Slack.DEFAULT.cpuCeiling(100_000)).isEqualTo(150_000 + 50_000);
    }

    @Test
    void roundsThePercentageUpSoTheCeilingNeverFallsBelowTheMeasurement() {
        assertThat(Slack.apply(3, 30, 0)).isEqualTo(4); // 3.9 -> 4
        assertThat(Slack.apply(10, 30, 0)).isEqualTo(13);
        assertThat(Slack.apply(1, 0, 0)).isEqualTo(1);
        assertThat(Slack.apply(0, 50, 50_000)).isEqualTo(50_000);
    }

    @Test
    void refusesNegativeSlack() {
        assertThatThrownBy(() -> new Slack(-1, 0, 0, 0)).isInstanceOf(PatchgradeException.class).hasMessageContaining("rssSlackPercent=-1");
    }

    @Test
    void overflowIsNotSilentlyWrapped() {
        assertThatThrownBy(() -> Slack.apply(Long.MAX_VALUE / 10, 30, 0)).isInstanceOf(ArithmeticException.class);
    }
}
