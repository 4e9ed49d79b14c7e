package dev.patchgrade.core.coverage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** minimumPercent per file: 0 reports only, 100 asks for every changed executable line; shares are never rounded up. */
class GateTest {
    private static FileCoverage file(int run, int notRun) {
        List<FileCoverage.LineRun> lines = new ArrayList<>();
        for (int i = 0; i < run; i++) {
            lines.add(new FileCoverage.LineRun(i + 1, 1, 1, List.of("c")));
        }
        for (int i = 0; i < notRun; i++) {
            lines.add(new FileCoverage.LineRun(run + i + 1, 0, 0, List.of()));
        }
        PatchDiff.FileChange change = new PatchDiff.FileChange("a.c", "a.c", List.of());
        return new FileCoverage(change, lines.stream().map(FileCoverage.LineRun::line).toList(), true, lines);
    }

    @Test
    void zeroNeverFails() {
        assertThat(file(0, 5).below(0)).isFalse();
    }

    @Test
    void hundredFailsOnOneLineNotRun() {
        assertThat(file(999, 1).below(100)).isTrue();
        assertThat(file(1000, 0).below(100)).isFalse();
    }

    @Test
    void theShareIsComparedExactly() {
        assertThat(file(1, 1).below(50)).isFalse();
        assertThat(file(1, 1).below(50.1)).isTrue();
        assertThat(file(1, 2).below(33.3)).isFalse();
        assertThat(file(2, 1).below(66.67)).isTrue();
    }

    @Test
    void aFileWithoutChangedExecutableLinesPassesAnyGate() {
        assertThat(file(0, 0).below(100)).isFalse();
        assertThat(file(0, 0).percent()).isNull();
    }

    @Test
    void thePercentShownIsNeverRoundedUp() {
        assertThat(PatchCoverageText.percent(file(999, 1).percent())).isEqualTo("99.9%");
        assertThat(PatchCoverageText.percent(file(9999, 1).percent())).isEqualTo("99.9%");
        assertThat(PatchCoverageText.percent(file(1, 0).percent())).isEqualTo("100%");
        assertThat(PatchCoverageText.percent(file(1, 2).percent())).isEqualTo("33.3%");
        assertThat(PatchCoverageText.percent(file(0, 3).percent())).isEqualTo("0%");
        assertThat(PatchCoverageText.percent(null)).isEqualTo("-");
    }

    @Test
    void theFailureMessageListsTheRangesNeverRun() {
        PatchDiff.FileChange change = new PatchDiff.FileChange("src/calc.c", "src/calc.c", List.of());
        List<FileCoverage.LineRun> lines = List.of(new FileCoverage.LineRun(10, 3, 1, List.of("a")), new FileCoverage.LineRun(12, 0, 0, List.of()),
                new FileCoverage.LineRun(13, 0, 0, List.of()), new FileCoverage.LineRun(14, 0, 0, List.of()), new FileCoverage.LineRun(20, 0, 0, List.of()));
        FileCoverage file = new FileCoverage(change, List.of(10, 11, 12, 13, 14, 20), true, lines);
        assertThat(PatchCoverageText.summary(file)).isEqualTo("1 of 5 changed executable lines run (20%)");
        assertThat(file.notRun()).containsExactly(12, 13, 14, 20);
        assertThat(LineRanges.format(file.notRun())).isEqualTo("12-14, 20");
    }
}
