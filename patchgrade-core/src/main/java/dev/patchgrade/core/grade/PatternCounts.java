package dev.patchgrade.core.grade;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * How many rows each pattern classified, in the patterns' order: worst first, so the first pattern seen is the
 * worst, which names the execution.
 *
 * @param <P> the goal's patterns, declared worst first
 */
public final class PatternCounts<P extends Enum<P>> {
    private final EnumMap<P, Long> counts;

    public PatternCounts(Class<P> patterns) {
        this.counts = new EnumMap<>(patterns);
    }

    public void add(P pattern) {
        counts.merge(pattern, 1L, Long::sum);
    }

    /** The counts so far, in pattern order; only the patterns seen. */
    public Map<P, Long> snapshot() {
        return Collections.unmodifiableMap(new EnumMap<>(counts));
    }

    /** The worst pattern seen, or {@code none} where no row was counted. */
    public P worst(P none) {
        return counts.isEmpty() ? none : counts.keySet().iterator().next();
    }
}
