package dev.patchgrade.core.differential;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Zeller's ddmin (Zeller and Hildebrandt, "Simplifying and Isolating Failure-Inducing Input", 2002): the smallest
 * sub-sequence of a failing input that still fails, found by testing ever finer subsets and complements of it.
 * Each test is one call of the predicate, which for a differential grade costs a run of both programs, so the
 * number of tests is capped; a configuration is never tested twice.
 *
 * <p>Where the budget lasts, the result is 1-minimal: removing any single element of it makes the input pass.
 * Where it runs out, the result is the smallest failing input found so far (never larger than the input).
 */
public final class DeltaDebugging {
    private DeltaDebugging() {}

    /**
     * @param smallest a sub-sequence of the input, in its order, that still fails
     * @param tests how many times the predicate was called
     * @param budgetSpent the budget ran out before the result was known to be 1-minimal
     */
    public record Result<T>(List<T> smallest, int tests, boolean budgetSpent) {
        public Result {
            smallest = List.copyOf(smallest);
        }
    }

    /**
     * @param failing an input that fails (not tested again)
     * @param fails whether an input still fails; it is assumed to answer the same for the same input
     * @param budget the most calls of {@code fails}; 0 returns the input as it is
     */
    public static <T> Result<T> minimize(List<T> failing, Predicate<List<T>> fails, int budget) {
        if (budget < 0) {
            throw new IllegalArgumentException("budget must not be negative, was " + budget);
        }
        Tester<T> tester = new Tester<>(fails, budget);
        List<T> current = List.copyOf(failing);
        if (current.isEmpty()) {
            return new Result<>(current, 0, false);
        }
        // Not part of ddmin, which assumes the empty input passes: one test that often ends a stdin or an argument at once,
        // and what makes a one-element result 1-minimal.
        Boolean empty = tester.test(List.of());
        if (empty == null) {
            return new Result<>(current, tester.tests, true);
        }
        if (empty) {
            return new Result<>(List.of(), tester.tests, false);
        }
        int granularity = 2;
        while (current.size() >= 2) {
            List<List<T>> chunks = split(current, granularity);
            boolean reduced = false;
            for (List<T> chunk : chunks) {
                Boolean outcome = tester.test(chunk);
                if (outcome == null) {
                    return new Result<>(current, tester.tests, true);
                }
                if (outcome) {
                    current = chunk;
                    granularity = 2;
                    reduced = true;
                    break;
                }
            }
            if (!reduced && granularity > 2) {
                // With two chunks each complement is the other chunk, tested above.
                for (int i = 0; i < chunks.size(); i++) {
                    List<T> complement = complement(chunks, i);
                    Boolean outcome = tester.test(complement);
                    if (outcome == null) {
                        return new Result<>(current, tester.tests, true);
                    }
                    if (outcome) {
                        current = complement;
                        granularity = Math.max(granularity - 1, 2);
                        reduced = true;
                        break;
                    }
                }
            }
            if (!reduced) {
                if (granularity >= current.size()) {
                    break;
                }
                granularity = Math.min(granularity * 2, current.size());
            }
        }
        return new Result<>(current, tester.tests, false);
    }

    /** {@code n} consecutive chunks of near-equal size, the longer ones first. */
    static <T> List<List<T>> split(List<T> list, int n) {
        List<List<T>> chunks = new ArrayList<>(n);
        int start = 0;
        for (int i = 0; i < n; i++) {
            int end = start + (list.size() - start) / (n - i);
            chunks.add(List.copyOf(list.subList(start, end)));
            start = end;
        }
        return chunks;
    }

    private static <T> List<T> complement(List<List<T>> chunks, int left) {
        List<T> rest = new ArrayList<>();
        for (int i = 0; i < chunks.size(); i++) {
            if (i != left) {
                rest.addAll(chunks.get(i));
            }
        }
        return rest;
    }

    /** The predicate, each configuration tested once, within the budget. */
    private static final class Tester<T> {
        private final Predicate<List<T>> fails;
        private final int budget;
        private final Set<List<T>> passed = new HashSet<>();
        private int tests;

        Tester(Predicate<List<T>> fails, int budget) {
            this.fails = fails;
            this.budget = budget;
        }

        /** Whether the configuration fails, or {@code null} where the budget is spent. */
        Boolean test(List<T> configuration) {
            // A configuration that failed became the current one and is never offered again; only passes need remembering.
            if (passed.contains(configuration)) {
                return false;
            }
            if (tests >= budget) {
                return null;
            }
            tests++;
            boolean outcome = fails.test(configuration);
            if (!outcome) {
                passed.add(configuration);
            }
            return outcome;
        }
    }
}
