package dev.patchgrade.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class FirstDifferenceTest {
    @Test
    void namesTheFirstDifferingLineWithGoldBesideCandidate() {
        FirstDifference.Line line = FirstDifference.firstLine("stdout", FirstDifference.lines("total: 3\nmean: 1.50\nmax: 2\n"), true,
                FirstDifference.lines("total: 3\nmean: 1.49\nmax: 2\n"));
        assertThat(line.number()).isEqualTo(2);
        assertThat(line.describe()).isEqualTo("stdout line 2: gold <mean: 1.50> | candidate <mean: 1.49>");
    }

    @Test
    void theEmptyStreamIsNamedAsSuch() {
        FirstDifference.Line line = FirstDifference.firstLine("stderr", FirstDifference.lines(""), true, FirstDifference.lines("WARN: rounding\n"));
        assertThat(line.describe()).isEqualTo("stderr line 1: gold (empty stream) | candidate <WARN: rounding>");
        FirstDifference.Line gone = FirstDifference.firstLine("stdout", FirstDifference.lines("a\nb\n"), true, FirstDifference.lines("a\n"));
        assertThat(gone.describe()).isEqualTo("stdout line 2: gold <b> | candidate (no such line: the stream ends before it)");
    }

    @Test
    void anIncompleteGoldSaysNothingAboutLinesPastIt() {
        assertThat(FirstDifference.firstLine("stdout", List.of("a"), false, List.of("a", "b"))).isNull();
        assertThat(FirstDifference.firstLine("stdout", List.of("a"), true, List.of("a", "b")).describe())
                .isEqualTo("stdout line 2: gold (no such line: the stream ends before it) | candidate <b>");
    }

    @Test
    void excerptsAreCentredOnTheDifferenceNotCutFromTheStart() {
        String gold = "summary: items=12 total=4711 average=392.58 median=301 max=1200 checksum=0x5f3a";
        String cand = "summary: items=12 total=4711 average=392.58 median=301 max=1200 checksum=0x5f3b";
        int at = FirstDifference.firstIndex(gold, cand);
        assertThat(at).isEqualTo(gold.length() - 1).isGreaterThan(60);
        String shown = FirstDifference.excerpt(cand, at, 60);
        assertThat(shown).startsWith("...").endsWith("0x5f3b").hasSize(63);
        assertThat(FirstDifference.excerpt("short", 0, 60)).isEqualTo("short");
        assertThat(FirstDifference.excerpt("x".repeat(100) + "Y" + "z".repeat(100), 100, 30))
                .isEqualTo("..." + "x".repeat(10) + "Y" + "z".repeat(19) + "...");
    }

    @Test
    void controlCharactersAreEscapedInOneLine() {
        assertThat(FirstDifference.escape("a\tb\r\u001b[31m\\")).isEqualTo("a\\tb\\r\\x1b[31m\\\\");
    }

    @Test
    void whatATerminalOrABrowserWouldObeyIsNamedNotShown() {
        // C1 CSI and NEL, a bidi override, a zero-width space, a line separator, a tag character, a noncharacter.
        assertThat(FirstDifference.escape("a\u009b2K\u0085b\u202ec\u200bd\u2028e\udb40\udc01f\uffff"))
                .isEqualTo("a\\x9b2K\\x85b\\u202ec\\u200bd\\u2028e\\U000e0001f\\uffff");
        assertThat(FirstDifference.escape("caf\u00e9 \u00a0 \ud83d\ude00 \u4e2d")).as("printable text stays as it is")
                .isEqualTo("caf\u00e9 \u00a0 \ud83d\ude00 \u4e2d");
        assertThat(FirstDifference.escape("x\ud83dy")).as("a lone surrogate").isEqualTo("x\\ud83dy");
    }

    @Test
    void anExcerptNeverCutsACharacterInTwo() {
        String emoji = "\ud83d\ude00".repeat(40);
        for (int at = 0; at < emoji.length(); at++) {
            String shown = FirstDifference.excerpt(emoji, at, 31);
            String inner = shown.replace("...", "");
            assertThat(inner.codePoints()).allMatch(c -> Character.getType(c) != Character.SURROGATE);
        }
    }
}
