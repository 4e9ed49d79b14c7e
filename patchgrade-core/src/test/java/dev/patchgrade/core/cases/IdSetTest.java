package dev.patchgrade.core.cases;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class IdSetTest {
    @Test
    void keepsAKeyPerIdThroughGrowth() {
        IdSet ids = new IdSet();
        IntStream.range(0, 10_000).forEach(i -> assertThat(ids.add("case-" + i)).isTrue());
        assertThat(ids.add("case-17")).isFalse();
        assertThat(ids.size()).isEqualTo(10_000);
        assertThat(ids.contains("case-9999")).isTrue();
        assertThat(ids.contains("case-10000")).isFalse();
        assertThat(ids.contains("")).isFalse();
    }

    @Test
    void sameKeysWhateverTheOrder() {
        IdSet forward = new IdSet();
        IdSet backward = new IdSet();
        IntStream.range(0, 500).forEach(i -> forward.add("id " + i));
        IntStream.range(0, 500).forEach(i -> backward.add("id " + (499 - i)));
        assertThat(forward.sameKeys(backward)).isTrue();
        backward.add("id 500");
        assertThat(forward.sameKeys(backward)).isFalse();
        IdSet other = new IdSet();
        IntStream.range(1, 501).forEach(i -> other.add("id " + i));
        assertThat(forward.sameKeys(other)).isFalse();
    }

    @Test
    void idsThatUtf8WouldWriteAlikeHaveKeysOfTheirOwn() {
        IdSet ids = new IdSet();
        assertThat(ids.add("x?")).isTrue();
        assertThat(ids.contains("x\uD800")).isFalse();
        assertThat(ids.add("x\uD800")).isTrue();
        assertThat(ids.add("x\uDC00")).isTrue();
        assertThat(ids.size()).isEqualTo(3);
    }
}
