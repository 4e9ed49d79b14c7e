package dev.patchgrade.core.report;

/**
 * Text a person reads on a console or a report page, with every character that could make it read as
 * something else written as an escape: C0 and C1 controls (a terminal obeys ESC and U+009B CSI, and CR
 * or NEL start a line over), format characters (bidi overrides reorder the rest of the line, zero-width
 * and tag characters hide a difference), line and paragraph separators, lone surrogates and
 * noncharacters. A candidate's bytes reach such text in excerpts, and it is rewarded when a failure
 * reads as a pass.
 */
public final class ConsoleText {
    private ConsoleText() {}

    /** Whether a code point may be shown as it is. */
    public static boolean shown(int c) {
        return switch (Character.getType(c)) {
            case Character.CONTROL, Character.FORMAT, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR, Character.SURROGATE -> false;
            default -> (c & 0xFFFE) != 0xFFFE && !(c >= 0xFDD0 && c <= 0xFDEF);
        };
    }

    /** {@code \xNN} up to U+00FF, {@code \\uNNNN} in the BMP, {@code \UNNNNNNNN} beyond, as Python writes them. */
    public static void appendEscape(StringBuilder out, int c) {
        if (c <= 0xFF) {
            out.append(String.format("\\x%02x", c));
        } else if (c <= 0xFFFF) {
            out.append(String.format("\\u%04x", c));
        } else {
            out.append(String.format("\\U%08x", c));
        }
    }

    /**
     * The text with every character that is not {@linkplain #shown shown} escaped, except LF (patchgrade's own
     * messages span lines) and tab. Backslashes stay as they are: this guards text that was made readable
     * already (excerpts are escaped where they are cut) and only catches what slipped through.
     */
    public static String safe(String text) {
        if (text == null) {
            return null;
        }
        StringBuilder out = null;
        for (int i = 0; i < text.length();) {
            int c = text.codePointAt(i);
            int next = i + Character.charCount(c);
            boolean keep = c == '\n' || c == '\t' || shown(c);
            if (!keep && out == null) {
                out = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            if (out != null) {
                if (keep) {
                    out.appendCodePoint(c);
                } else {
                    appendEscape(out, c);
                }
            }
            i = next;
        }
        return out == null ? text : out.toString();
    }
}
