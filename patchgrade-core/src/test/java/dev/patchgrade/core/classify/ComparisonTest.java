package dev.patchgrade.core.classify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ComparisonTest {
    private static final Comparison TRIM = Comparison.parse("trim");
    private static final Comparison EXACT = Comparison.parse("exact");

    @Test
    void trimIgnoresOnlyLeadingAndTrailingWhiteSpace() {
        assertThat(TRIM.equal("  2\n", "2")).isTrue();
        assertThat(TRIM.equal("\n\t2 \r\n\n", "2")).isTrue();
        assertThat(TRIM.equal("a  b\n", "a  b")).isTrue();
        assertThat(TRIM.equal("a  b", "a b")).isFalse();
        assertThat(TRIM.equal("a\nb\n", "a\nb")).isTrue();
        assertThat(TRIM.equal("", "   \n")).isTrue();
        assertThat(TRIM.equal("2", "20")).isFalse();
        assertThat(TRIM.equal("ab", "a")).isFalse();
    }

    @Test
    void exactComparesEveryCharacter() {
        assertThat(EXACT.equal("2\n", "2\n")).isTrue();
        assertThat(EXACT.equal("2\n", "2")).isFalse();
        assertThat(EXACT.equal("", "")).isTrue();
        assertThat(EXACT.equal("x".repeat(20_000), "x".repeat(20_000))).isTrue();
        assertThat(EXACT.equal("x".repeat(20_000), "x".repeat(19_999) + "y")).isFalse();
    }

    @Test
    void ulpComparesNumbersWithinTheDistanceAndOtherTokensExactly() {
        Comparison ulp = Comparison.parse("ulp:4");
        assertThat(ulp.equal("sum 0.30000000000000004\n", "sum 0.3000000000000001")).isTrue();
        assertThat(ulp.equal("sum 0.3", "total 0.3")).isFalse();
        assertThat(ulp.equal("1 2 3", "1 2")).isFalse();
        assertThat(ulp.equal("1.0e10", "1E10")).isTrue();
        assertThat(Comparison.parse("ulp:0").equal("0.30000000000000004", "0.3000000000000001")).isFalse();
        assertThat(Comparison.parse("ulp:0").equal("1.50", "1.5")).isTrue();
    }

    @Test
    void negativeZeroNanAndInfinity() {
        Comparison ulp = Comparison.parse("ulp:1");
        assertThat(ulp.equal("-0.0", "0")).isTrue();
        assertThat(ulp.equal("nan", "NaN")).isTrue();
        assertThat(ulp.equal("nan", "0")).isFalse();
        assertThat(ulp.equal("inf", "Infinity")).isTrue();
        assertThat(ulp.equal("-inf", "inf")).isFalse();
        assertThat(Comparison.ulpDistance(Double.MAX_VALUE, Double.POSITIVE_INFINITY)).isEqualTo(1);
        assertThat(Comparison.ulpDistance(-Double.MAX_VALUE, Double.MAX_VALUE)).isGreaterThan(1L << 62);
        Comparison abs = Comparison.parse("abs:1e-9");
        assertThat(abs.equal("-0.0", "0.0")).isTrue();
        assertThat(abs.equal("inf", "inf")).isTrue();
        assertThat(abs.equal("inf", "1e308")).isFalse();
    }

    @Test
    void absComparesWithAnAbsoluteDistance() {
        Comparison abs = Comparison.parse("abs:0.01");
        assertThat(abs.equal("3.141", "3.14")).isTrue();
        assertThat(abs.equal("3.16", "3.14")).isFalse();
        assertThat(abs.equal("x=3.141", "x=3.14")).isFalse();
    }

    @Test
    void thousandsOfTokensCompareInOrder() {
        StringBuilder a = new StringBuilder();
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 5000; i++) {
            a.append(i * 0.1).append(' ');
            b.append(i * 0.1).append('\n');
        }
        assertThat(Comparison.parse("ulp:2").equal(a.toString(), b.toString())).isTrue();
        b.append("extra");
        assertThat(Comparison.parse("ulp:2").equal(a.toString(), b.toString())).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"fuzzy", "ulp:", "ulp:-1", "ulp:x", "abs:", "abs:-0.1", "abs:nan", "trimmed"})
    void unknownComparisonsAreParameterErrors(String value) {
        assertThatThrownBy(() -> Comparison.parse(value)).hasMessageContaining("the comparison setting must be trim, exact, ulp:N")
                .hasMessageContaining(value);
    }

    @Test
    void describesItself() {
        assertThat(Comparison.parse(" ULP:4 ")).hasToString("ulp:4");
        assertThat(Comparison.parse(null)).hasToString("trim");
    }
}
