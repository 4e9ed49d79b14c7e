package dev.patchgrade.core.classify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ClassifierTest {
    /** The article's decision table, on the tenths example's outputs. */
    @ParameterizedTest(name = "ref={0} cand={1} golden={2} -> {3}")
    @CsvSource({
        "2, 2, 2, PASS_ALL_AGREE",
        "2, 2, 3, GOLDEN_ROT",
        "2, 1, 1, COUPLED_OR_STALE_GOLDEN",
        "2, 1, 2, CANDIDATE_REGRESSION",
        "3, 2, 9, THREE_WAY_SPLIT",
    })
    void classifiesThePatternOfTheThreeComparisons(String reference, String candidate, String golden, DriftPattern expected) {
        Comparison exact = Comparison.parse("exact");
        DriftPattern pattern = Classifier.classify(exact.equal(reference, candidate), exact.equal(candidate, golden), exact.equal(reference, golden));
        assertThat(pattern).isEqualTo(expected);
    }

    private static Classifier.Evidence evidence(boolean refTimeout, boolean candTimeout, boolean refClean, boolean candClean) {
        return new Classifier.Evidence(refTimeout, candTimeout, refClean, candClean, true, true, true);
    }

    @Test
    void timeoutsAndNonZeroExitsComeBeforeAnyComparison() {
        assertThat(Classifier.classify(evidence(false, true, true, true))).isEqualTo(DriftPattern.TIMEOUT);
        assertThat(Classifier.classify(evidence(true, false, false, true))).isEqualTo(DriftPattern.TIMEOUT);
        assertThat(Classifier.classify(evidence(false, false, true, false))).isEqualTo(DriftPattern.NONZERO_EXIT);
        assertThat(Classifier.classify(evidence(false, false, false, true))).isEqualTo(DriftPattern.NONZERO_EXIT);
        assertThat(Classifier.classify(evidence(false, false, true, true))).isEqualTo(DriftPattern.PASS_ALL_AGREE);
    }

    @Test
    void severityOrderIsTheContracts() {
        assertThat(Arrays.stream(DriftPattern.values()).map(DriftPattern::wireName).toList()).isEqualTo(List.of(
                "reference_identity_drift", "three_way_split", "golden_rot", "coupled_or_stale_golden",
                "candidate_regression", "timeout", "nonzero_exit", "pass_all_agree"));
        assertThat(List.of(DriftPattern.PASS_ALL_AGREE, DriftPattern.GOLDEN_ROT, DriftPattern.CANDIDATE_REGRESSION).stream().min(Enum::compareTo))
                .as("the worst of a batch, as the goal picks it").contains(DriftPattern.GOLDEN_ROT);
        assertThat(DriftPattern.PASS_ALL_AGREE.passed()).isTrue();
    }
}
