package dev.patchgrade.core.cases;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a cases file. {@code .jsonl} files hold one JSON object a line ({@code id}, {@code args},
 * optional {@code stdin}, {@code timeout_s}, {@code cwd}, {@code env}, and {@code golden} and
 * {@code expect_exit} for the three-column grade); any other file is plain text, one argument a
 * line, the line being both the id and the single argument. A UTF-8 byte order mark is ignored;
 * bare CR line endings, unknown keys and keys given twice are errors, so a typo never drops a setting.
 */
public final class CasesFile {

    private CasesFile() {}

    /** Every case of the file, in file order; for callers that need them all at once (tests, tools). */
    public static List<Case> read(Path file, boolean goldenRequired) {
        return List.copyOf(open(file, goldenRequired, Shard.ALL));
    }

    /** The file checked whole (as {@link #open(Path, boolean, Shard, IdSet)}), its ids not kept. */
    public static CaseSource open(Path file, boolean goldenRequired, Shard shard) {
        return open(file, goldenRequired, shard, new IdSet());
    }

    /**
     * Checks the whole file, then gives its cases of {@code shard}, read from the file again as they are
     * taken: at 100,000 cases, holding them all kept megabytes alive through the grade (issue 15). Every
     * error is found here, before any case runs, with the file and line it names.
     *
     * @param ids filled with the id of every case in the file, whatever the shard, for the caller to check
     *     against what else it reads (the gold)
     */
    public static CaseSource open(Path file, boolean goldenRequired, Shard shard, IdSet ids) {
        // Encoding and line endings first, over the whole file, as when the file was decoded in one piece.
        checkText(file);
        boolean jsonLines = jsonLines(file);
        int count = 0;
        int selected = 0;
        CasesFormatException duplicate = null;
        try (LineReader lines = LineReader.open(file)) {
            for (String line = lines.next(); line != null; line = lines.next()) {
                Case c = CaseLine.parse(file, lines.number(), line, jsonLines, goldenRequired);
                if (c == null) {
                    continue;
                }
                count++;
                if (shard.selects(c.id())) {
                    selected++;
                }
                if (!ids.add(c.id()) && duplicate == null) {
                    int first = firstLine(file, goldenRequired, c.id(), lines.number());
                    if (first > 0) {
                        // Reported after the lines below it are checked: a malformed line is the first thing to fix.
                        duplicate = new CasesFormatException(file, lines.number(), "duplicate case id \"" + printable(c.id())
                                + "\" (first on line " + first + "); every id must be unique because reports and gold files are keyed by it");
                    }
                }
            }
        } catch (IOException e) {
            throw unreadable(file, e);
        }
        if (goldenRequired && !jsonLines) {
            throw new CasesFormatException(file, 0, "the three-column grade needs a .jsonl cases file with id, args and golden on each line");
        }
        if (count == 0) {
            throw new CasesFormatException(file, 0, "holds no cases; add at least one "
                    + (jsonLines ? "line like {\"id\":\"zero\",\"args\":[\"0\"]}" : "argument line"));
        }
        if (duplicate != null) {
            throw duplicate;
        }
        return new CaseSource(file, goldenRequired, shard, selected);
    }

    /** The ids of every case in the file, in file order: for messages that list them, read again only then. */
    public static List<String> ids(Path file, boolean goldenRequired) {
        List<String> ids = new ArrayList<>();
        boolean jsonLines = jsonLines(file);
        try (LineReader lines = LineReader.open(file)) {
            for (String line = lines.next(); line != null; line = lines.next()) {
                Case c = CaseLine.parse(file, lines.number(), line, jsonLines, goldenRequired);
                if (c != null) {
                    ids.add(c.id());
                }
            }
        } catch (IOException e) {
            throw unreadable(file, e);
        }
        return ids;
    }

    /**
     * Whether the file is a three-column cases file (its first case gives {@code golden}) rather than a digest's:
     * for a goal that runs the cases of either ({@code patch-coverage}), to read it with the keys it was written with.
     * A file that cannot be read says so when it is opened.
     */
    public static boolean holdsGoldens(Path file) {
        if (!jsonLines(file)) {
            return false;
        }
        try (LineReader lines = LineReader.open(file)) {
            for (String line = lines.next(); line != null; line = lines.next()) {
                if (!line.isBlank()) {
                    com.fasterxml.jackson.databind.JsonNode node = new com.fasterxml.jackson.databind.ObjectMapper().readTree(line.strip());
                    return node != null && node.isObject() && (node.has("golden") || node.has("golden_file"));
                }
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
        return false;
    }

    /**
     * The existing files a JSON Lines cases file names as {@code golden_file}: oracles as much as the cases file,
     * hidden from every run and checked unchanged after it. A line that does not parse is left to the grade to report.
     */
    public static List<Path> goldenFiles(Path file) {
        if (file == null || !jsonLines(file) || !Files.isRegularFile(file)) {
            return List.of();
        }
        java.util.Set<Path> files = new java.util.LinkedHashSet<>();
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        try (LineReader lines = LineReader.open(file)) {
            for (String line = lines.next(); line != null; line = lines.next()) {
                if (!line.contains("golden_file")) {
                    continue;
                }
                try {
                    com.fasterxml.jackson.databind.JsonNode name = json.readTree(line.strip()).get("golden_file");
                    if (name != null && name.isTextual() && !name.asText().isEmpty() && name.asText().indexOf('\0') < 0) {
                        Path path = CaseLine.goldenPath(file, name.asText());
                        if (Files.isRegularFile(path)) {
                            files.add(path);
                        }
                    }
                } catch (IOException | RuntimeException e) {
                    // the grade reports the line
                }
            }
        } catch (IOException e) {
            throw unreadable(file, e);
        }
        return List.copyOf(files);
    }

    static boolean jsonLines(Path file) {
        return file.getFileName().toString().endsWith(".jsonl");
    }

    /** The first line before {@code before} holding the case {@code id}, or 0 where only its key was the same. */
    private static int firstLine(Path file, boolean goldenRequired, String id, int before) {
        boolean jsonLines = jsonLines(file);
        try (LineReader lines = LineReader.open(file)) {
            for (String line = lines.next(); line != null && lines.number() < before; line = lines.next()) {
                Case c = CaseLine.parse(file, lines.number(), line, jsonLines, goldenRequired);
                if (c != null && c.id().equals(id)) {
                    return lines.number();
                }
            }
        } catch (IOException e) {
            throw unreadable(file, e);
        }
        return 0;
    }

    static PatchgradeException unreadable(Path file, IOException e) {
        if (e instanceof NoSuchFileException) {
            return new PatchgradeException(ErrorName.MISSING_CASES, shown -> file + ": no cases file; fix the path in " + shown.setting(Setting.CASES));
        }
        if (e instanceof CharacterCodingException) {
            return new CasesFormatException(file, 0, "is not valid UTF-8; save it as UTF-8");
        }
        return new PatchgradeException(ErrorName.MISSING_CASES, file + ": cannot read the cases file (" + e.getMessage() + ")");
    }

    /** A bare CR anywhere is an error, and so is a byte that is not UTF-8, whichever line it is on. */
    private static void checkText(Path file) {
        try (Reader in = LineReader.reader(file)) {
            char[] buffer = new char[1 << 13];
            int line = 1;
            int crLine = 0;
            int bareCr = 0;
            for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
                for (int i = 0; i < n; i++) {
                    char c = buffer[i];
                    if (crLine > 0 && c != '\n' && bareCr == 0) {
                        bareCr = crLine;
                    }
                    crLine = c == '\r' ? line : 0;
                    if (c == '\n') {
                        line++;
                    }
                }
            }
            if (crLine > 0 && bareCr == 0) {
                bareCr = crLine;
            }
            if (bareCr > 0) {
                throw new CasesFormatException(file, bareCr, "ends with a bare CR (old Mac line endings), so the lines after it would run "
                        + "together into one case; save the file with LF (or CRLF) line endings");
            }
        } catch (IOException e) {
            throw unreadable(file, e);
        }
    }

    /** An id as it may be shown in a message: control characters escaped, long ids shortened. */
    public static String printable(String id) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < id.length() && out.length() < 120; i++) {
            char c = id.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                out.append(String.format("\\x%02x", (int) c));
            } else {
                out.append(c);
            }
        }
        if (out.length() >= 120 && id.length() > 120) {
            out.append("...(").append(id.length()).append(" characters)");
        }
        return out.toString();
    }
}
