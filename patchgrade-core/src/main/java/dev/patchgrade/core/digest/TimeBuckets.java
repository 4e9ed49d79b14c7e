package dev.patchgrade.core.digest;

import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Time classes (of CPU or wall time, see {@link TimeBasis}) instead of raw milliseconds, so digests stay
 * comparable across runs: cutoffs {@code 50,500,5000} give {@code lt_50ms}, {@code lt_500ms}, {@code lt_5s}, {@code gt_5s}.
 * {@code off} records and grades no time at all. Grading has hysteresis: a time drifts only when it
 * lies outside the gold bucket widened by a factor ({@link TimeBucket#outside}).
 */
public final class TimeBuckets {
    public static final String DEFAULT = "50,500,5000";
    public static final String OFF_VALUE = "off";
    public static final double DEFAULT_SLACK = 2.0;
    public static final TimeBuckets OFF = new TimeBuckets(new long[0]);
    private final long[] cutoffs;
    private final List<TimeBucket> buckets;

    private TimeBuckets(long[] cutoffs) {
        this.cutoffs = cutoffs;
        List<TimeBucket> all = new ArrayList<>();
        for (int i = 0; i < cutoffs.length; i++) {
            all.add(new TimeBucket("lt_" + duration(cutoffs[i]), i == 0 ? 0 : cutoffs[i - 1], cutoffs[i]));
        }
        if (cutoffs.length > 0) {
            long last = cutoffs[cutoffs.length - 1];
            all.add(new TimeBucket("gt_" + duration(last), last, Long.MAX_VALUE));
        }
        this.buckets = List.copyOf(all);
    }

    public static TimeBuckets parse(String text) {
        if (text != null && text.strip().equalsIgnoreCase(OFF_VALUE)) {
            return OFF;
        }
        String[] parts = (text == null || text.isBlank() ? DEFAULT : text).split(",");
        long[] cutoffs = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                cutoffs[i] = Long.parseLong(parts[i].strip());
            } catch (NumberFormatException e) {
                throw bad(text);
            }
            if (cutoffs[i] <= 0 || (i > 0 && cutoffs[i] <= cutoffs[i - 1])) {
                throw bad(text);
            }
        }
        return new TimeBuckets(cutoffs);
    }

    private static PatchgradeException bad(String text) {
        return PatchgradeException.badParameter(Setting.TIME_BUCKETS, "must be increasing positive millisecond cutoffs separated by commas, "
                + "e.g. 50,500,5000, or off (found \"" + text + "\")");
    }

    static String duration(long millis) {
        return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
    }

    /** False for {@code off}: no bucket is recorded or graded. */
    public boolean enabled() {
        return cutoffs.length > 0;
    }

    /** The bucket of a wall time, or {@code null} when buckets are off. */
    public TimeBucket bucket(long wallMillis) {
        if (!enabled()) {
            return null;
        }
        for (TimeBucket bucket : buckets) {
            if (wallMillis < bucket.upper()) {
                return bucket;
            }
        }
        return last();
    }

    /** The last bucket, or {@code null} when buckets are off. */
    public TimeBucket last() {
        return enabled() ? buckets.get(buckets.size() - 1) : null;
    }

    /** The bucket a gold file names, if these cutoffs have one of that label. */
    public Optional<TimeBucket> named(String label) {
        return buckets.stream().filter(b -> b.label().equals(label)).findFirst();
    }

    /** Checks a {@code timeBucketSlack} value. */
    public static double checkSlack(double slack) {
        if (!(slack >= 1.0) || Double.isInfinite(slack)) {
            throw PatchgradeException.badParameter(Setting.TIME_BUCKET_SLACK, "must be a factor of at least 1 (found " + slack
                    + "); 1 grades the buckets exactly, 2 (the default) widens lt_500ms to 25-1,000 ms");
        }
        return slack;
    }

    /** The labels, for messages that list them. */
    public List<String> names() {
        return buckets.stream().map(TimeBucket::label).toList();
    }
}
