package dev.patchgrade.core.report;

import java.util.List;

/**
 * Where two texts first differ, and excerpts cut around that place: a difference 200 characters
 * into a line must be visible in a 60-character excerpt, so excerpts are centred on it rather than
 * cut from the start.
 */
public final class FirstDifference {
    /** How many characters of a line an excerpt shows. */
    public static final int WIDTH = 60;

    private FirstDifference() {}

    /**
     * The first line that differs.
     *
     * @param number 1-based
     * @param gold the gold side's line, or {@code null} where that side has no such line
     * @param candidate the candidate's line, or {@code null} where it has no such line
     */
    public record Line(String stream, int number, String gold, String candidate, boolean goldEmpty, boolean candidateEmpty) {
        /** {@code stdout line 3: gold <total: 42> | candidate <total: 41>}, each side centred on the difference. */
        public String describe() {
            int at = gold == null || candidate == null ? 0 : firstIndex(gold, candidate);
            return stream + " line " + number + ": gold " + side(gold, goldEmpty, at) + " | candidate " + side(candidate, candidateEmpty, at);
        }

        private static String side(String line, boolean emptyStream, int at) {
            if (line == null) {
                return emptyStream ? "(empty stream)" : "(no such line: the stream ends before it)";
            }
            return quote(line, at, WIDTH);
        }
    }

    /** Lines without their LF terminators; a final LF does not start another line. */
    public static List<String> lines(String text) {
        if (text.isEmpty()) {
            return List.of();
        }
        String body = text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
        return List.of(body.split("\n", -1));
    }

    /**
     * The first line where {@code gold} and {@code candidate} differ, or {@code null} where the lines
     * agree for as far as {@code goldLines} go (a gold excerpt may hold only the start of a stream).
     *
     * @param goldComplete whether {@code goldLines} hold the whole gold stream (else a longer candidate is no difference)
     */
    public static Line firstLine(String stream, List<String> goldLines, boolean goldComplete, List<String> candidateLines) {
        int shared = Math.min(goldLines.size(), candidateLines.size());
        for (int i = 0; i < shared; i++) {
            if (!goldLines.get(i).equals(candidateLines.get(i))) {
                return new Line(stream, i + 1, goldLines.get(i), candidateLines.get(i), false, false);
            }
        }
        if (goldLines.size() > candidateLines.size()) {
            int i = candidateLines.size();
            return new Line(stream, i + 1, goldLines.get(i), null, false, candidateLines.isEmpty());
        }
        if (goldComplete && candidateLines.size() > goldLines.size()) {
            int i = goldLines.size();
            return new Line(stream, i + 1, null, candidateLines.get(i), goldLines.isEmpty(), false);
        }
        return null;
    }

    /** The index of the first character where the texts differ, or -1 where they are equal. */
    public static int firstIndex(String a, String b) {
        int shared = Math.min(a.length(), b.length());
        for (int i = 0; i < shared; i++) {
            if (a.charAt(i) != b.charAt(i)) {
                return i;
            }
        }
        return a.length() == b.length() ? -1 : shared;
    }

    /**
     * At most {@code width} characters of {@code text} around index {@code at} (a third of them before
     * it), control characters escaped, with {@code ...} where text was cut.
     */
    public static String excerpt(String text, int at, int width) {
        String shown = escape(text);
        int centre = escape(text.substring(0, Math.max(0, Math.min(at, text.length())))).length();
        if (shown.length() <= width) {
            return shown;
        }
        int start = Math.max(0, Math.min(centre - width / 3, shown.length() - width));
        int end = Math.min(shown.length(), start + width);
        // A cut through a surrogate pair would leave half a character, which a console prints as '?'.
        if (start > 0 && Character.isLowSurrogate(shown.charAt(start))) {
            start++;
        }
        if (end < shown.length() && Character.isLowSurrogate(shown.charAt(end))) {
            end--;
        }
        return (start > 0 ? "..." : "") + shown.substring(start, end) + (end < shown.length() ? "..." : "");
    }

    /**
     * An {@linkplain #excerpt excerpt} between angle brackets, with each {@code >} inside written {@code \>}: the
     * excerpt is the candidate's text, and an unescaped {@code >} would let it close its own quote and go on with
     * a forged {@code golden=<...>} or {@code | candidate <...>} of its own choosing.
     */
    public static String quote(String text, int at, int width) {
        return "<" + excerpt(text, at, width).replace(">", "\\>") + ">";
    }

    /**
     * One line: backslashes, LF, CR and tab escaped, every other character a console or a page would obey
     * rather than show ({@link ConsoleText#shown}) as {@code \xNN}, {@code \\uNNNN} or {@code \UNNNNNNNN}.
     */
    public static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length();) {
            int c = text.codePointAt(i);
            i += Character.charCount(c);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (ConsoleText.shown(c)) {
                        out.appendCodePoint(c);
                    } else {
                        ConsoleText.appendEscape(out, c);
                    }
                }
            }
        }
        return out.toString();
    }
}
