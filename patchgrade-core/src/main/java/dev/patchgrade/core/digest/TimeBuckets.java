package dev.patchgrade.core.digest;

import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.grade.Setting;
import java.util.ArrayList;
import java.util.List;

/**
 * Wall-time classes instead of raw milliseconds, so digests stay comparable across runs:
 * cutoffs {@code 50,500,5000} give {@code lt_50ms}, {@code lt_500ms}, {@code lt_5s}, {@code gt_5s}.
 * {@code off} records and grades no time at all. Grading has hysteresis: a time drifts only when it
 * lies outside the gold bucket widened by a factor ({@link #outside}).
 */
public final class TimeBuckets {
    public static final String DEFAULT = "50,500,5000";
    public static final String OFF_VALUE = "off";
    public static final double DEFAULT_SLACK = 2.0;
    public static final TimeBuckets OFF = new TimeBuckets(new long[0]);
    private final long[] cutoffs;
    private final List<String> names;

    private TimeBuckets(long[] cutoffs) {
        this.cutoffs = cutoffs;
        List<String> all = new ArrayList<>();
        for (long cutoff : cutoffs) {
            all.add("lt_" + duration(cutoff));
        }
        if (cutoffs.length > 0) {
            all.add("gt_" + duration(cutoffs[cutoffs.length - 1]));
        }
        this.names = List.copyOf(all);
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
    public String bucket(long wallMillis) {
        if (!enabled()) {
            return null;
        }
        for (int i = 0; i < cutoffs.length; i++) {
            if (wallMillis < cutoffs[i]) {
                return names.get(i);
            }
        }
        return last();
    }

    /** The last bucket, or {@code null} when buckets are off. */
    public String last() {
        return enabled() ? names.get(names.size() - 1) : null;
    }

    /** The bucket's limits in milliseconds, {@code [lower, upper)}; the last bucket's upper limit is {@link Long#MAX_VALUE}. */
    public long[] limits(String name) {
        int i = names.indexOf(name);
        if (i < 0) {
            throw new IllegalArgumentException("unknown bucket " + name);
        }
        return new long[] {i == 0 ? 0 : cutoffs[i - 1], i < cutoffs.length ? cutoffs[i] : Long.MAX_VALUE};
    }

    /** The bucket's limits divided and multiplied by {@code slack}: {@code lt_500ms} (50-500 ms) with slack 2 is 25-1,000 ms. */
    public long[] widened(String name, double slack) {
        long[] limits = limits(name);
        long upper = limits[1] == Long.MAX_VALUE ? Long.MAX_VALUE : (long) Math.ceil(limits[1] * slack);
        return new long[] {(long) Math.floor(limits[0] / slack), upper};
    }

    /**
     * Whether {@code fastestMillis} drifts from the gold bucket: it must lie outside the bucket widened by
     * {@code slack}, so a case recorded near a cutoff does not flip on a busy or an idle machine.
     */
    public boolean outside(String goldBucket, long fastestMillis, double slack) {
        long[] range = widened(goldBucket, slack);
        return fastestMillis < range[0] || fastestMillis >= range[1];
    }

    /** Checks a {@code timeBucketSlack} value. */
    public static double checkSlack(double slack) {
        if (!(slack >= 1.0) || Double.isInfinite(slack)) {
            throw PatchgradeException.badParameter(Setting.TIME_BUCKET_SLACK, "must be a factor of at least 1 (found " + slack
                    + "); 1 grades the buckets exactly, 2 (the default) widens lt_500ms to 25-1,000 ms");
        }
        return slack;
    }

    public List<String> names() {
        return names;
    }

    public boolean knows(String name) {
        return names.contains(name);
    }
}
