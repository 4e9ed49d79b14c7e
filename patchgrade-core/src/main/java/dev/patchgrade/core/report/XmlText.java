package dev.patchgrade.core.report;

import java.util.regex.Pattern;

/**
 * Makes arbitrary child output safe for XML 1.0: ANSI escape sequences are removed and every
 * character XML 1.0 forbids (NUL, other C0 controls, lone surrogates, U+FFFE, U+FFFF) becomes
 * U+FFFD. A character reference such as {@code &#27;} would not help: a reference to an illegal
 * character is itself illegal, and Jenkins drops the whole file.
 */
public final class XmlText {
    private static final Pattern ANSI = Pattern.compile("\u001B(?:\\[[0-?]*[ -/]*[@-~]|\\][^\u0007\u001B]*(?:\u0007|\u001B\\\\)?|[@-Z\\\\-_])");
    private static final char REPLACEMENT = '\uFFFD';

    private XmlText() {}

    public static String clean(String text) {
        if (text == null) {
            return "";
        }
        String withoutAnsi = text.indexOf('\u001B') >= 0 ? ANSI.matcher(text).replaceAll("") : text;
        StringBuilder out = null;
        int length = withoutAnsi.length();
        for (int i = 0; i < length; i++) {
            char c = withoutAnsi.charAt(i);
            boolean legal;
            int width = 1;
            if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(withoutAnsi.charAt(i + 1))) {
                legal = true;
                width = 2;
            } else {
                legal = c == '\t' || c == '\n' || c == '\r'
                        || (c >= 0x20 && c <= 0xD7FF)
                        || (c >= 0xE000 && c <= 0xFFFD);
            }
            if (!legal && out == null) {
                out = new StringBuilder(length);
                out.append(withoutAnsi, 0, i);
            }
            if (out != null) {
                if (legal) {
                    out.append(withoutAnsi, i, i + width);
                } else {
                    out.append(REPLACEMENT);
                }
            }
            i += width - 1;
        }
        return out == null ? withoutAnsi : out.toString();
    }

    /** Clean text folded onto one line, for attributes Jenkins shows as a title. */
    public static String oneLine(String text) {
        return clean(text).replaceAll("\\s*[\r\n]+\\s*", " | ").strip();
    }

    /** Escapes clean text for an attribute value (quotes, ampersands, angle brackets, white space controls). */
    public static String attribute(String text) {
        String clean = clean(text);
        StringBuilder out = new StringBuilder(clean.length() + 16);
        for (int i = 0; i < clean.length(); i++) {
            char c = clean.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&apos;");
                case '\t' -> out.append("&#9;");
                case '\n' -> out.append("&#10;");
                case '\r' -> out.append("&#13;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * Clean text as one or more CDATA sections; a {@code ]]>} inside is split across two sections, and an
     * attachment directive is {@linkplain #defuse defused}.
     */
    public static String cdata(String text) {
        return "<![CDATA[" + defuse(clean(text)).replace("]]>", "]]]]><![CDATA[>") + "]]>";
    }

    /**
     * Jenkins' JUnit Attachments plugin (and GitLab's and Azure DevOps' JUnit readers) take a line
     * {@code [[ATTACHMENT|/path]]} in a test's output as an order to archive that file of the agent with the
     * build, for everyone who can read it to download: a candidate printing {@code [[ATTACHMENT|/home/jenkins/.m2/settings.xml]]}
     * would publish the agent's credentials. A backslash before the bar keeps the line readable and makes it
     * no directive.
     */
    static String defuse(String text) {
        return text.indexOf("[[") < 0 ? text : ATTACHMENT.matcher(text).replaceAll("$1\\\\|");
    }

    private static final Pattern ATTACHMENT = Pattern.compile("(\\[\\[ATTACHMENT)\\|", Pattern.CASE_INSENSITIVE);
}
