package dev.patchgrade.core.differential;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** ddmin without processes: what it keeps still fails, is 1-minimal where the budget lasts, and never spends more than the budget. */
class DeltaDebuggingTest {
    private static List<Integer> range(int n) {
        return IntStream.rangeClosed(1, n).boxed().toList();
    }

    /** Fails while it holds every one of {@code needed}, and counts its calls. */
    private static final class Needs implements Predicate<List<Integer>> {
        final Set<Integer> needed;
        final List<List<Integer>> asked = new ArrayList<>();

        Needs(Integer... needed) {
            this.needed = Set.of(needed);
        }

        @Override
        public boolean test(List<Integer> input) {
            asked.add(List.copyOf(input));
            return input.containsAll(needed);
        }
    }

    @Test
    void zellersExampleOfEightChangesKeepsTheThreeThatFailTogether() {
        // The paper's running example: the failure needs changes 1, 7 and 8 together.
        Needs fails = new Needs(1, 7, 8);
        DeltaDebugging.Result<Integer> result = DeltaDebugging.minimize(range(8), fails, 200);
        assertThat(result.smallest()).containsExactly(1, 7, 8);
        assertThat(result.budgetSpent()).isFalse();
        assertThat(result.tests()).isEqualTo(fails.asked.size());
    }

    @Test
    void oneCulpritAmongAThousandIsFoundInLogarithmicallyManyTests() {
        Needs fails = new Needs(617);
        DeltaDebugging.Result<Integer> result = DeltaDebugging.minimize(range(1000), fails, 200);
        assertThat(result.smallest()).containsExactly(617);
        // The empty input, then halving: two tests a level at most over ten levels.
        assertThat(result.tests()).isLessThanOrEqualTo(1 + 2 * 10);
    }

    @Test
    void anInputThatFailsEmptyIsCutToNothingInOneTest() {
        DeltaDebugging.Result<Integer> result = DeltaDebugging.minimize(range(50), input -> true, 200);
        assertThat(result.smallest()).isEmpty();
        assertThat(result.tests()).isEqualTo(1);
    }

    @Test
    void anEmptyInputCostsNoTest() {
        DeltaDebugging.Result<Integer> result = DeltaDebugging.minimize(List.<Integer>of(), input -> {
            throw new AssertionError("no test needed");
        }, 200);
        assertThat(result.smallest()).isEmpty();
        assertThat(result.tests()).isZero();
    }

    @Test
    void aSingleElementThatIsNeededStaysAndIsOneMinimal() {
        Needs fails = new Needs(1);
        DeltaDebugging.Result<Integer> result = DeltaDebugging.minimize(List.of(1), fails, 200);
        assertThat(result.smallest()).containsExactly(1);
        assertThat(result.budgetSpent()).isFalse();
        assertThat(fails.asked).containsExactly(List.of());
    }

    @Test
    void aBudgetOfNothingReturnsTheInputAsItIsAndSaysTheBudgetRanOut() {
        DeltaDebugging.Result<Integer> result = DeltaDebugging.minimize(range(10), input -> {
            throw new AssertionError("no test within a budget of 0");
        }, 0);
        assertThat(result.smallest()).isEqualTo(range(10));
        assertThat(result.budgetSpent()).isTrue();
        assertThat(result.tests()).isZero();
    }

    @Test
    void aNegativeBudgetIsRefused() {
        assertThatThrownBy(() -> DeltaDebugging.minimize(range(3), input -> true, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theBudgetIsNeverExceededAndWhatItReturnsStillFails() {
        // Needs many scattered elements: ddmin needs far more than 5 tests for it.
        Needs fails = new Needs(3, 11, 19, 27, 35, 43, 51, 59);
        for (int budget = 0; budget <= 40; budget++) {
            fails.asked.clear();
            DeltaDebugging.Result<Integer> result = DeltaDebugging.minimize(range(64), fails, budget);
            assertThat(fails.asked).as("budget " + budget).hasSizeLessThanOrEqualTo(budget);
            assertThat(result.tests()).isEqualTo(fails.asked.size());
            assertThat(result.smallest()).as("budget " + budget).containsAll(fails.needed);
            if (result.budgetSpent()) {
                assertThat(result.tests()).isEqualTo(budget);
            }
        }
    }

    @Test
    void noConfigurationIsTestedTwice() {
        Needs fails = new Needs(2, 5, 9, 13);
        DeltaDebugging.minimize(range(16), fails, 1000);
        assertThat(new HashSet<>(fails.asked)).hasSameSizeAs(fails.asked);
    }

    @Test
    void theResultKeepsTheInputsOrder() {
        List<String> words = List.of("d", "a", "c", "b", "e");
        DeltaDebugging.Result<String> result = DeltaDebugging.minimize(words, input -> input.contains("c") && input.contains("a"), 200);
        assertThat(result.smallest()).containsExactly("a", "c");
    }

    @Test
    void randomPredicatesAlwaysGiveAFailingOneMinimalSubsequenceWithinTheBudget() {
        Random random = new Random(20240601);
        for (int round = 0; round < 500; round++) {
            int size = 1 + random.nextInt(40);
            List<Integer> input = range(size);
            Predicate<List<Integer>> fails = randomFailure(random, size);
            if (!fails.test(input)) {
                continue;
            }
            int[] calls = {0};
            int budget = random.nextInt(4) == 0 ? random.nextInt(10) : 10_000;
            DeltaDebugging.Result<Integer> result = DeltaDebugging.minimize(input, candidate -> {
                calls[0]++;
                return fails.test(candidate);
            }, budget);
            String context = "round " + round + ", size " + size + ", budget " + budget;
            assertThat(calls[0]).as(context).isLessThanOrEqualTo(budget).isEqualTo(result.tests());
            assertThat(fails.test(result.smallest())).as(context + ": the result still fails").isTrue();
            assertThat(isSubsequence(result.smallest(), input)).as(context).isTrue();
            if (!result.budgetSpent()) {
                for (int i = 0; i < result.smallest().size(); i++) {
                    List<Integer> without = new ArrayList<>(result.smallest());
                    without.remove(i);
                    assertThat(fails.test(without)).as(context + ": 1-minimal, without element " + result.smallest().get(i)).isFalse();
                }
            }
        }
    }

    /**
     * A failure of one of three kinds real inputs show: a set of elements needed together, one of several sets
     * (either bug), or enough elements past a threshold (a size limit).
     */
    private static Predicate<List<Integer>> randomFailure(Random random, int size) {
        switch (random.nextInt(3)) {
            case 0 -> {
                Set<Integer> needed = randomSet(random, size, 1 + random.nextInt(4));
                return input -> input.containsAll(needed);
            }
            case 1 -> {
                Set<Integer> first = randomSet(random, size, 1 + random.nextInt(3));
                Set<Integer> second = randomSet(random, size, 1 + random.nextInt(3));
                return input -> input.containsAll(first) || input.containsAll(second);
            }
            default -> {
                int threshold = 1 + random.nextInt(Math.max(1, size / 2));
                return input -> input.stream().mapToInt(Integer::intValue).sum() >= threshold * 3;
            }
        }
    }

    private static Set<Integer> randomSet(Random random, int size, int n) {
        Set<Integer> set = new HashSet<>();
        while (set.size() < Math.min(n, size)) {
            set.add(1 + random.nextInt(size));
        }
        return set;
    }

    private static boolean isSubsequence(List<Integer> part, List<Integer> whole) {
        int at = 0;
        for (Integer element : whole) {
            if (at < part.size() && part.get(at).equals(element)) {
                at++;
            }
        }
        return at == part.size();
    }

    @Test
    void splitCutsIntoConsecutiveChunksOfNearEqualSize() {
        assertThat(DeltaDebugging.split(range(7), 3)).containsExactly(List.of(1, 2), List.of(3, 4), List.of(5, 6, 7));
        assertThat(DeltaDebugging.split(range(4), 4)).containsExactly(List.of(1), List.of(2), List.of(3), List.of(4));
        assertThat(DeltaDebugging.split(range(8), 2)).containsExactly(range(4), List.of(5, 6, 7, 8));
    }
}
