package dev.patchgrade.core.digest;

import java.util.stream.Stream;

/** Time buckets named by label, for tests that write tuples by hand: those of the default cutoffs and of one 60 s cutoff. */
public final class Buckets {
    private Buckets() {}

    public static TimeBucket label(String label) {
        return Stream.of(TimeBuckets.DEFAULT, "60000").map(TimeBuckets::parse).flatMap(b -> b.named(label).stream()).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no test cutoffs have a bucket " + label));
    }
}
