package dev.patchgrade.core.coverage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LineRangesTest {
    @Test
    void consecutiveLinesBecomeOneRange() {
        assertThat(LineRanges.format(List.of(3, 4, 5, 9, 12, 13, 14))).isEqualTo("3-5, 9, 12-14");
    }

    @Test
    void orderAndDuplicatesDoNotMatter() {
        assertThat(LineRanges.format(List.of(14, 3, 13, 3, 12, 5, 4))).isEqualTo("3-5, 12-14");
    }

    @Test
    void singleLinesAndNoLines() {
        assertThat(LineRanges.format(List.of(7))).isEqualTo("7");
        assertThat(LineRanges.format(List.of(1, 3, 5))).isEqualTo("1, 3, 5");
        assertThat(LineRanges.format(List.of())).isEmpty();
        assertThat(LineRanges.ranges(List.of(1, 2, 4))).containsExactly("1-2", "4");
    }
}
