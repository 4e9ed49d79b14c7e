package dev.patchgrade.core.report;

import java.util.List;

/** The last lines of a run's stderr, escaped for a message: what a person reads first when a command did not finish cleanly. */
public final class StderrTail {
    public static final int LINES = 5;
    private static final int MOST_CHARACTERS = 1200;

    private StderrTail() {}

    /** "; stderr ends with: ..." with the last {@link #LINES} non-blank lines, or "; stderr was empty". */
    public static String of(String stderr) {
        if (stderr == null || stderr.isBlank()) {
            return "; stderr was empty";
        }
        List<String> lines = stderr.lines().filter(line -> !line.isBlank()).toList();
        List<String> last = lines.subList(Math.max(0, lines.size() - LINES), lines.size());
        String text = String.join("\n    ", last.stream().map(FirstDifference::escape).toList());
        if (text.length() > MOST_CHARACTERS) {
            text = "..." + text.substring(text.length() - MOST_CHARACTERS);
        }
        return "; stderr ends with:\n    " + text;
    }
}
