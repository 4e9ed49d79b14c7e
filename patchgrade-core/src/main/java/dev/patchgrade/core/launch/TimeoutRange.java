package dev.patchgrade.core.launch;

import java.util.Locale;

/**
 * The timeouts a file may give: long enough to be measured by the launcher (1 ms) and short enough
 * to be a timeout at all (one day). Outside it a value is a typo, never silently rounded.
 */
public final class TimeoutRange {
    public static final double MIN_SECONDS = 0.001;
    public static final double MAX_SECONDS = 86_400;

    private TimeoutRange() {}

    public static boolean accepts(double seconds) {
        return Double.isFinite(seconds) && seconds >= MIN_SECONDS && seconds <= MAX_SECONDS;
    }

    /** For messages: {@code a number of seconds from 0.001 to 86400 (one day)}. */
    public static String describe() {
        return String.format(Locale.ROOT, "a number of seconds from %s to %d (one day)", MIN_SECONDS, (long) MAX_SECONDS);
    }
}
