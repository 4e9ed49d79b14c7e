package dev.patchgrade.core.digest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class DigestTupleTest {
    private static final String A = "a".repeat(64);
    private static final String B = "b".repeat(64);
    private static final DigestTuple GOLD = new DigestTuple("1.005", 0, A, A, dev.patchgrade.core.digest.SanitizerClass.CLEAN, Buckets.label("lt_50ms"));

    @Test
    void identicalTuplesHaveNoDrift() {
        assertThat(new DigestTuple("1.005", 0, A, A, dev.patchgrade.core.digest.SanitizerClass.CLEAN, Buckets.label("lt_50ms")).driftFrom(GOLD)).isEmpty();
    }

    @Test
    void aStderrChangeAloneIsOneDrift() {
        assertThat(new DigestTuple("1.005", 0, A, B, dev.patchgrade.core.digest.SanitizerClass.CLEAN, Buckets.label("lt_50ms")).driftFrom(GOLD))
                .extracting(DigestTuple.Drift::describe).containsExactly("stderr_sha256: " + A + " -> " + B);
    }

    @Test
    void theSanitizerVerdictLeadsBecauseItExplainsTheRest() {
        List<DigestTuple.Drift> drifts = new DigestTuple("1.005", 1, B, B, dev.patchgrade.core.digest.SanitizerClass.UBSAN, Buckets.label("lt_500ms")).driftFrom(GOLD);
        assertThat(drifts).extracting(DigestTuple.Drift::field)
                .containsExactly(DriftField.SANITIZER, DriftField.EXIT, DriftField.STDOUT_SHA256, DriftField.STDERR_SHA256,
                        DriftField.TIME_BUCKET);
        assertThat(drifts.get(0).describe()).isEqualTo("sanitizer: clean -> ubsan");
    }

    @Test
    void aTimeoutComparesNullsAsValues() {
        DigestTuple timedOut = new DigestTuple("1.005", null, null, null, dev.patchgrade.core.digest.SanitizerClass.TIMEOUT, Buckets.label("gt_5s"));
        assertThat(timedOut.driftFrom(GOLD)).extracting(DigestTuple.Drift::describe)
                .contains("exit: 0 -> null", "sanitizer: clean -> timeout");
        assertThat(timedOut.driftFrom(timedOut)).isEmpty();
    }
}
