package dev.patchgrade.core.digest;

import dev.patchgrade.core.PatchgradeException;
import java.util.ArrayList;
import java.util.List;

/**
 * Wall-time classes instead of raw milliseconds, so digests stay comparable across runs:
 * cutoffs {@code 50,500,5000} give {@code lt_50ms}, {@code lt_500ms}, {@code lt_5s}, {@code gt_5s}.
 */
public final class TimeBuckets {
    public static final String DEFAULT = "50,500,5000";
    private final long[] cutoffs;
    private final List<String> names;

    private TimeBuckets(long[] cutoffs) {
        this.cutoffs = cutoffs;
        List<String> all = new ArrayList<>();
        for (long cutoff : cutoffs) {
            all.add("lt_" + duration(cutoff));
        }
        all.add("gt_" + duration(cutoffs[cutoffs.length - 1]));
        this.names = List.copyOf(all);
    }

    public static TimeBuckets parse(String text) {
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
        return new PatchgradeException("bad_parameter", "<timeBuckets> must be increasing positive millisecond cutoffs separated by commas, "
                + "e.g. 50,500,5000 (found \"" + text + "\")");
    }

    static String duration(long millis) {
        return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
    }

    public String bucket(long wallMillis) {
        for (int i = 0; i < cutoffs.length; i++) {
            if (wallMillis < cutoffs[i]) {
                return names.get(i);
            }
        }
        return last();
    }

    public String last() {
        return names.get(names.size() - 1);
    }

    public List<String> names() {
        return names;
    }

    public boolean knows(String name) {
        return names.contains(name);
    }
}
