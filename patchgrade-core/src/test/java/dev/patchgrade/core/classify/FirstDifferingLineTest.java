package dev.patchgrade.core.classify;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The three-column failure body names the first line where the outputs part, centred on the place. */
class FirstDifferingLineTest {
    private static final String PREFIX = "report: " + "x".repeat(120) + " checksum=";

    @Test
    void aDifferencePastTheSixtiethCharacterIsShownInEverySide() {
        String line = ThreeColumnGoal.firstDifferingLine("head\n" + PREFIX + "0xf211\n", "head\n" + PREFIX + "0xf212\n",
                "head\n" + PREFIX + "0xf211\n");
        assertThat(line).startsWith("first differing line 2: ");
        assertThat(line).contains("reference <...", "checksum=0xf211>", "candidate <...", "checksum=0xf212>", "golden <...");
        assertThat(line).doesNotContain("report: ");
    }

    @Test
    void aMissingLineIsSaidAsSuch() {
        assertThat(ThreeColumnGoal.firstDifferingLine("a\nb\n", "a\n", "a\nb\n"))
                .isEqualTo("first differing line 2: reference <b> | candidate (no such line) | golden <b>");
    }

    @Test
    void outputsThatAgreeLineForLineHaveNone() {
        assertThat(ThreeColumnGoal.firstDifferingLine("same\n", "same\n", "same\n")).isNull();
    }
}
