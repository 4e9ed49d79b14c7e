package dev.patchgrade.core.report;

import java.util.List;

/** The last lines of a run's stderr, escaped for a message: what a person reads first when a command did not finish cleanly. */
public final class StderrTail {
    public static final int LINES = 5;
    private static final int MOST_CHARACTERS = 1200;
    private static final int MESSAGE_CHARACTERS = 160;

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

    /**
     * One program's line of a failure's body: "\n<name>: exit 127; stderr ends with: ...". A failure that is a
     * program's own (a library it could not load, a file it could not write) is told there, not in a stream file.
     */
    public static String side(String name, String outcome, String stderr) {
        return "\n" + name + ": " + outcome + of(stderr);
    }

    /** The last non-blank line of stderr, escaped and cut for a one-line message; {@code null} where there is none. */
    public static String lastLine(String stderr) {
        if (stderr == null) {
            return null;
        }
        List<String> lines = stderr.lines().filter(line -> !line.isBlank()).toList();
        if (lines.isEmpty()) {
            return null;
        }
        String line = FirstDifference.escape(lines.get(lines.size() - 1).strip());
        return line.length() > MESSAGE_CHARACTERS ? line.substring(0, MESSAGE_CHARACTERS) + "..." : line;
    }
}
