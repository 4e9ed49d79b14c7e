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
        assertThat(buckets.bucket(0).label()).isEqualTo("lt_50ms");
        assertThat(buckets.bucket(49).label()).isEqualTo("lt_50ms");
        assertThat(buckets.bucket(50).label()).isEqualTo("lt_500ms");
        assertThat(buckets.bucket(4999).label()).isEqualTo("lt_5s");
        assertThat(buckets.bucket(5000).label()).isEqualTo("gt_5s");
        assertThat(buckets.last().label()).isEqualTo("gt_5s");
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
        TimeBucket lt500 = buckets.named("lt_500ms").orElseThrow();
        assertThat(lt500.widened(2)).isEqualTo(new TimeBucket.Range(25, 1000));
        assertThat(lt500.widened(2).describe()).isEqualTo("25-1,000 ms");
        assertThat(lt500.outside(24, 2)).isTrue();
        assertThat(lt500.outside(25, 2)).isFalse();
        assertThat(lt500.outside(999, 2)).isFalse();
        assertThat(lt500.outside(1000, 2)).isTrue();
        assertThat(buckets.named("lt_50ms").orElseThrow().widened(2)).isEqualTo(new TimeBucket.Range(0, 100));
        assertThat(buckets.named("gt_5s").orElseThrow().widened(2)).isEqualTo(new TimeBucket.Range(2500, Long.MAX_VALUE));
        assertThat(buckets.named("gt_5s").orElseThrow().widened(2).describe()).isEqualTo("2,500 ms and more");
    }

    @Test
    void eachBucketCarriesItsLabelAndRange() {
        TimeBuckets buckets = TimeBuckets.parse("10, 1500, 2000");
        assertThat(buckets.bucket(1499)).isEqualTo(new TimeBucket("lt_1500ms", 10, 1500));
        assertThat(buckets.named("lt_1500ms")).contains(buckets.bucket(10));
        assertThat(buckets.last()).isEqualTo(new TimeBucket("gt_2s", 2000, Long.MAX_VALUE));
        assertThat(buckets.named("lt_1s")).as("a label of other cutoffs").isEmpty();
        assertThat(buckets.bucket(0)).hasToString("lt_10ms");
    }

    /** Gold files hold the label, written and read back as before the bucket had a type. */
    @Test
    void aGoldFileHoldsTheLabelAndReadsBackToTheSameBucket() throws Exception {
        TimeBuckets buckets = TimeBuckets.parse(null);
        DigestTuple tuple = new DigestTuple("a", 0, DigestTuple.EMPTY_SHA256, DigestTuple.EMPTY_SHA256, SanitizerClass.CLEAN, buckets.bucket(60), 60L);
        String json = dev.patchgrade.core.report.JsonReports.MAPPER.writeValueAsString(GoldFile.json(tuple, null, java.util.List.of()));
        assertThat(json).endsWith("\"sanitizer\" : \"clean\",\n  \"time_bucket\" : \"lt_500ms\",\n  \"time_ms\" : 60\n}");
        assertThat(GoldFile.tuple(java.nio.file.Path.of("a.json"), dev.patchgrade.core.report.JsonReports.MAPPER.readTree(json), buckets)).isEqualTo(tuple);
        assertThat(dev.patchgrade.core.report.JsonReports.MAPPER.writeValueAsString(buckets.bucket(60))).isEqualTo("\"lt_500ms\"");
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
