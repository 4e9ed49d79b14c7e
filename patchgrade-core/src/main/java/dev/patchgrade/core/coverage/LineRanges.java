package dev.patchgrade.core.coverage;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/** Line numbers as people read them: {@code 3-5, 9, 12-14}. */
public final class LineRanges {
    private LineRanges() {}

    /** The lines as ascending ranges, each run of consecutive numbers one range; empty for no lines. */
    public static String format(Collection<Integer> lines) {
        return String.join(", ", ranges(lines));
    }

    /** The ranges one by one ({@code "3-5"}, {@code "9"}), ascending, duplicates ignored. */
    public static List<String> ranges(Collection<Integer> lines) {
        List<String> ranges = new ArrayList<>();
        Integer start = null;
        Integer last = null;
        for (int line : new TreeSet<>(lines)) {
            if (last != null && line == last + 1) {
                last = line;
                continue;
            }
            if (start != null) {
                ranges.add(range(start, last));
            }
            start = line;
            last = line;
        }
        if (start != null) {
            ranges.add(range(start, last));
        }
        return ranges;
    }

    private static String range(int start, int end) {
        return start == end ? Integer.toString(start) : start + "-" + end;
    }
}
