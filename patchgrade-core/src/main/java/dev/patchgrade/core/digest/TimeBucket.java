package dev.patchgrade.core.digest;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * One wall-time class of a {@link TimeBuckets}: the label gold files write ({@code lt_500ms}) and the
 * milliseconds it holds, {@code [lower, upper)}. Only a {@link TimeBuckets} makes one, so a label read
 * from a gold file is always one the configured cutoffs know.
 *
 * @param upper {@link Long#MAX_VALUE} for the last bucket, which has no upper limit
 */
public record TimeBucket(String label, long lower, long upper) {

    /** The label: drifts and tables show the bucket as the gold file writes it. */
    @JsonValue
    @Override
    public String toString() {
        return label;
    }

    /** Milliseconds from {@code lower} up to, not including, {@code upper}. */
    public record Range(long lower, long upper) {
        public boolean contains(long millis) {
            return millis >= lower && millis < upper;
        }

        /** {@code 25-1,000 ms}, or for a range without an upper limit {@code 2,500 ms and more}. */
        public String describe() {
            return upper == Long.MAX_VALUE ? String.format(Locale.ROOT, "%,d ms and more", lower)
                    : String.format(Locale.ROOT, "%,d-%,d ms", lower, upper);
        }
    }

    /** The bucket's limits divided and multiplied by {@code slack}: {@code lt_500ms} (50-500 ms) with slack 2 is 25-1,000 ms. */
    public Range widened(double slack) {
        long widenedUpper = upper == Long.MAX_VALUE ? Long.MAX_VALUE : (long) Math.ceil(upper * slack);
        return new Range((long) Math.floor(lower / slack), widenedUpper);
    }

    /**
     * Whether {@code fastestMillis} drifts from this (the gold) bucket: it must lie outside the bucket widened by
     * {@code slack}, so a case recorded near a cutoff does not flip on a busy or an idle machine.
     */
    public boolean outside(long fastestMillis, double slack) {
        return !widened(slack).contains(fastestMillis);
    }
}
