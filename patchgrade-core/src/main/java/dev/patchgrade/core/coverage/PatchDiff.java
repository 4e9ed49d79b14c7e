package dev.patchgrade.core.coverage;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The files and lines a patch changed, read from {@code git diff}'s unified output: per file its hunks, and the
 * added or modified lines of the new file. A hunk's body is read by its header's line counts, not by what its lines
 * look like, so a removed line that reads {@code --- a/x} or an added one that reads {@code @@} is never taken for
 * a header.
 */
public final class PatchDiff {
    /** The C and C++ sources and headers whose changes count: what gcc and clang compile as C or C++. */
    static final Set<String> EXTENSIONS = Set.of("c", "h", "cc", "cp", "cpp", "cxx", "c++", "hh", "hp", "hpp", "hxx", "h++", "inl", "ipp",
            "tcc", "txx", "tpp", "ixx", "cppm");

    private PatchDiff() {}

    /**
     * One line of a hunk.
     *
     * @param kind {@code '+'} added, {@code '-'} removed, {@code ' '} context
     * @param line its number in the new file (added and context lines) or in the old file (removed lines)
     */
    public record Line(char kind, int line, String text) {}

    /** A hunk: where it starts in the old and the new file, how many lines of each, and its lines. */
    public record Hunk(int oldStart, int oldCount, int newStart, int newCount, String section, List<Line> lines) {
        public Hunk {
            lines = List.copyOf(lines);
        }

        /** The header as git writes it. */
        public String header() {
            return "@@ -" + oldStart + "," + oldCount + " +" + newStart + "," + newCount + " @@" + (section.isEmpty() ? "" : " " + section);
        }
    }

    /**
     * One changed file.
     *
     * @param path the new file's path as git names it (relative to where git ran, with {@code --relative})
     * @param oldPath the old file's path, {@code null} for a new file
     */
    public record FileChange(String path, String oldPath, List<Hunk> hunks) {
        public FileChange {
            hunks = List.copyOf(hunks);
        }

        /** The added or modified lines of the new file, ascending. */
        public TreeSet<Integer> changedLines() {
            TreeSet<Integer> lines = new TreeSet<>();
            for (Hunk hunk : hunks) {
                for (Line line : hunk.lines()) {
                    if (line.kind() == '+') {
                        lines.add(line.line());
                    }
                }
            }
            return lines;
        }
    }

    /** Whether a path names a C or C++ file by its extension (case-insensitive: {@code .C} and {@code .H} are C++ too). */
    public static boolean isCOrCpp(String path) {
        int slash = path.lastIndexOf('/');
        int dot = path.lastIndexOf('.');
        return dot > slash + 1 && dot < path.length() - 1 && EXTENSIONS.contains(path.substring(dot + 1).toLowerCase(Locale.ROOT));
    }

    /**
     * The files of a diff that exist in the new tree, in the diff's order. Deleted files, and files with no hunk
     * (a mode change, a pure rename, a binary file), are left out.
     *
     * @throws IllegalArgumentException where a hunk header or a hunk's body is not what git writes
     */
    public static List<FileChange> parse(String diff) {
        List<FileChange> files = new ArrayList<>();
        String[] lines = diff.split("\n", -1);
        String path = null;
        String oldPath = null;
        boolean deleted = false;
        List<Hunk> hunks = new ArrayList<>();
        int i = 0;
        while (i < lines.length) {
            String line = stripCr(lines[i]);
            if (line.startsWith("diff --git ")) {
                add(files, path, oldPath, deleted, hunks);
                path = null;
                oldPath = null;
                deleted = false;
                hunks = new ArrayList<>();
                i++;
            } else if (line.startsWith("--- ") && hunks.isEmpty()) {
                String name = line.substring(4);
                oldPath = name.equals("/dev/null") ? null : withoutPrefix(unquote(name), "a/");
                i++;
            } else if (line.startsWith("+++ ") && hunks.isEmpty()) {
                String name = line.substring(4);
                deleted = name.equals("/dev/null");
                path = deleted ? null : withoutPrefix(unquote(name), "b/");
                i++;
            } else if (line.startsWith("@@ ")) {
                i = hunk(lines, i, hunks);
            } else {
                i++;
            }
        }
        add(files, path, oldPath, deleted, hunks);
        return files;
    }

    private static void add(List<FileChange> files, String path, String oldPath, boolean deleted, List<Hunk> hunks) {
        if (path != null && !deleted && !hunks.isEmpty()) {
            files.add(new FileChange(path, oldPath, hunks));
        }
    }

    /** Reads the hunk whose header is at {@code start}; returns the index of the first line after it. */
    private static int hunk(String[] lines, int start, List<Hunk> hunks) {
        String header = stripCr(lines[start]);
        int end = header.indexOf(" @@", 3);
        if (end < 0) {
            throw new IllegalArgumentException("hunk header without its closing @@: " + header);
        }
        String[] ranges = header.substring(3, end).split(" ");
        if (ranges.length != 2 || !ranges[0].startsWith("-") || !ranges[1].startsWith("+")) {
            throw new IllegalArgumentException("hunk header is not -old +new: " + header);
        }
        int[] old = range(ranges[0].substring(1), header);
        int[] now = range(ranges[1].substring(1), header);
        String section = end + 3 < header.length() ? header.substring(end + 3).strip() : "";
        int oldLeft = old[1];
        int newLeft = now[1];
        int oldLine = old[0];
        int newLine = now[0];
        List<Line> body = new ArrayList<>();
        int i = start + 1;
        while ((oldLeft > 0 || newLeft > 0) && i < lines.length) {
            String line = stripCr(lines[i]);
            i++;
            if (line.startsWith("\\")) {
                continue; // "\ No newline at end of file"
            }
            char kind = line.isEmpty() ? ' ' : line.charAt(0);
            String text = line.isEmpty() ? "" : line.substring(1);
            switch (kind) {
                case '+' -> {
                    body.add(new Line('+', newLine++, text));
                    newLeft--;
                }
                case '-' -> {
                    body.add(new Line('-', oldLine++, text));
                    oldLeft--;
                }
                case ' ' -> {
                    body.add(new Line(' ', newLine++, text));
                    oldLine++;
                    oldLeft--;
                    newLeft--;
                }
                default -> throw new IllegalArgumentException("line " + i + " of the diff is in the hunk " + header
                        + " but starts with neither +, - nor a space");
            }
        }
        if (oldLeft != 0 || newLeft != 0) {
            throw new IllegalArgumentException("the hunk " + header + " ends before its " + old[1] + " old and " + now[1] + " new lines");
        }
        // A "\ No newline" marker right after the last line belongs to this hunk.
        while (i < lines.length && lines[i].startsWith("\\")) {
            i++;
        }
        hunks.add(new Hunk(old[0], old[1], now[0], now[1], section, body));
        return i;
    }

    /** {@code start[,count]}: a missing count is 1. */
    private static int[] range(String text, String header) {
        try {
            int comma = text.indexOf(',');
            return comma < 0 ? new int[] {Integer.parseInt(text), 1}
                    : new int[] {Integer.parseInt(text.substring(0, comma)), Integer.parseInt(text.substring(comma + 1))};
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("hunk header with a range that is not numbers: " + header, e);
        }
    }

    private static String stripCr(String line) {
        return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
    }

    private static String withoutPrefix(String name, String prefix) {
        return name.startsWith(prefix) ? name.substring(prefix.length()) : name;
    }

    /**
     * A path as git writes it: as it is, or where it holds unusual bytes, in double quotes with C escapes
     * ({@code "b/caf\303\251.c"}), the bytes being UTF-8.
     */
    static String unquote(String name) {
        if (name.length() < 2 || name.charAt(0) != '"' || name.charAt(name.length() - 1) != '"') {
            return name;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 1; i < name.length() - 1; i++) {
            char c = name.charAt(i);
            if (c != '\\' || i + 1 >= name.length() - 1) {
                byte[] encoded = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                bytes.write(encoded, 0, encoded.length);
                continue;
            }
            char next = name.charAt(++i);
            switch (next) {
                case 'a' -> bytes.write(7);
                case 'b' -> bytes.write(8);
                case 't' -> bytes.write('\t');
                case 'n' -> bytes.write('\n');
                case 'v' -> bytes.write(11);
                case 'f' -> bytes.write(12);
                case 'r' -> bytes.write('\r');
                case '"' -> bytes.write('"');
                case '\\' -> bytes.write('\\');
                default -> {
                    if (next >= '0' && next <= '3' && i + 2 < name.length() - 1) {
                        bytes.write(Integer.parseInt(name.substring(i, i + 3), 8));
                        i += 2;
                    } else {
                        bytes.write('\\');
                        bytes.write(next);
                    }
                }
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
