package dev.patchgrade.core.digest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TimeBucketsTest {
    @Test
    void defaultCutoffsNameTheArticlesBuckets() {
        assertThat(TimeBuckets.parse(null).names()).containsExactly("lt_50ms", "lt_500ms", "lt_5s", "gt_5s");
    }

    @Test
    void assignsEachWallTimeToTheFirstCutoffAboveIt() {
        TimeBuckets buckets = TimeBuckets.parse("50,500,5000");
        assertThat(buckets.bucket(0)).isEqualTo("lt_50ms");
        assertThat(buckets.bucket(49)).isEqualTo("lt_50ms");
        assertThat(buckets.bucket(50)).isEqualTo("lt_500ms");
        assertThat(buckets.bucket(4999)).isEqualTo("lt_5s");
        assertThat(buckets.bucket(5000)).isEqualTo("gt_5s");
        assertThat(buckets.last()).isEqualTo("gt_5s");
    }

    @Test
    void customCutoffsGetMatchingNames() {
        assertThat(TimeBuckets.parse("10, 1500, 2000").names()).containsExactly("lt_10ms", "lt_1500ms", "lt_2s", "gt_2s");
    }

    @Test
    void anEmptyParameterMeansTheDefaults() {
        assertThat(TimeBuckets.parse("").names()).isEqualTo(TimeBuckets.parse(TimeBuckets.DEFAULT).names());
    }

    @ParameterizedTest
    @ValueSource(strings = {"500,50", "0,10", "a,b", "50,,500", "-5", "50,50"})
    void rejectsCutoffsThatAreNotIncreasingPositiveNumbers(String text) {
        assertThatThrownBy(() -> TimeBuckets.parse(text)).hasMessageContaining("the timeBuckets setting must be increasing");
    }

    @Test
    void theWidenedBucketIsTheContractsExample() {
        TimeBuckets buckets = TimeBuckets.parse(null);
        assertThat(buckets.widened("lt_500ms", 2)).containsExactly(25, 1000);
        assertThat(buckets.outside("lt_500ms", 24, 2)).isTrue();
        assertThat(buckets.outside("lt_500ms", 25, 2)).isFalse();
        assertThat(buckets.outside("lt_500ms", 999, 2)).isFalse();
        assertThat(buckets.outside("lt_500ms", 1000, 2)).isTrue();
        assertThat(buckets.widened("lt_50ms", 2)).containsExactly(0, 100);
        assertThat(buckets.widened("gt_5s", 2)).containsExactly(2500, Long.MAX_VALUE);
    }

    @Test
    void offHasNoBuckets() {
        TimeBuckets off = TimeBuckets.parse(" OFF ");
        assertThat(off.enabled()).isFalse();
        assertThat(off.bucket(10)).isNull();
        assertThat(off.last()).isNull();
        assertThat(TimeBuckets.parse(null).enabled()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.5, 0, -1, Double.NaN, Double.POSITIVE_INFINITY})
    void slackIsAFactorOfAtLeastOne(double slack) {
        assertThatThrownBy(() -> TimeBuckets.checkSlack(slack)).hasMessageContaining("the timeBucketSlack setting must be a factor of at least 1");
    }
}
