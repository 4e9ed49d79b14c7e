package dev.patchgrade.core.differential;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.patchgrade.core.PatchgradeException;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A seed is given back exactly as a grade printed it, or drawn anew for each grade. */
class SeedTest {
    @Test
    void aPrintedSeedParsesBackToTheSameSeed() {
        for (long value : new long[] {0, 1, 42, Seed.DRAWN_BELOW - 1, Long.MAX_VALUE}) {
            Seed seed = Seed.parse(Long.toString(value));
            assertThat(seed.value()).isEqualTo(value);
            assertThat(seed.given()).isTrue();
            assertThat(Seed.parse(seed.toString())).isEqualTo(seed);
        }
        assertThat(Seed.parse(" 17 ").value()).isEqualTo(17);
    }

    @Test
    void noSeedConfiguredIsNone() {
        assertThat(Seed.parse(null)).isNull();
        assertThat(Seed.parse("  ")).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "12a", "0x10", "1e5", "+3", "9223372036854775808", "99999999999999999999"})
    void anythingButAWholeNumberFromZeroIsABadParameterNamingTheSetting(String text) {
        PatchgradeException e = catchThrowableOfType(PatchgradeException.class, () -> Seed.parse(text));
        assertThat(e.errorName()).isEqualTo("bad_parameter");
        assertThat(e.getMessage()).startsWith("the seed setting must be a whole number from 0 to 9223372036854775807").contains("\"" + text + "\"");
    }

    @Test
    void drawnSeedsAreNewEachTimeAndExactInAnyGeneratorsArithmetic() {
        Set<Long> drawn = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            Seed seed = Seed.draw();
            assertThat(seed.given()).isFalse();
            assertThat(seed.value()).isBetween(0L, Seed.DRAWN_BELOW - 1);
            drawn.add(seed.value());
        }
        // 50 draws of 2^32 values: a repeat has odds of about 3 in 10 million.
        assertThat(drawn).hasSizeGreaterThan(48);
    }

    @Test
    void aConfiguredSeedIsKeptAndNoneIsDrawn() {
        Seed given = new Seed(5, true);
        assertThat(Seed.orDraw(given)).isSameAs(given);
        assertThat(Seed.orDraw(null).given()).isFalse();
    }
}
