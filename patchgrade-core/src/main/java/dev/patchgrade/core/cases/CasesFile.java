package dev.patchgrade.core.cases;

import dev.patchgrade.core.ErrorName;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.grade.Setting;
import dev.patchgrade.core.launch.TimeoutRange;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a cases file. {@code .jsonl} files hold one JSON object a line ({@code id}, {@code args},
 * optional {@code stdin}, {@code timeout_s}, {@code cwd}, {@code env}, and {@code golden} and
 * {@code expect_exit} for the three-column grade); any other file is plain text, one argument a
 * line, the line being both the id and the single argument. A UTF-8 byte order mark is ignored;
 * bare CR line endings, unknown keys and keys given twice are errors, so a typo never drops a setting.
 */
public final class CasesFile {
    private static final ObjectMapper JSON = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    private static final Set<String> DIGEST_KEYS = Set.of("id", "args", "stdin", "timeout_s", "cwd", "env");
    private static final Set<String> THREE_COLUMN_KEYS = Set.of("id", "args", "stdin", "timeout_s", "cwd", "env", "golden", "expect_exit");

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
        try (Lines lines = Lines.open(file)) {
            for (String line = lines.next(); line != null; line = lines.next()) {
                Case c = parse(file, lines.number(), line, jsonLines, goldenRequired);
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
        try (Lines lines = Lines.open(file)) {
            for (String line = lines.next(); line != null; line = lines.next()) {
                Case c = parse(file, lines.number(), line, jsonLines, goldenRequired);
                if (c != null) {
                    ids.add(c.id());
                }
            }
        } catch (IOException e) {
            throw unreadable(file, e);
        }
        return ids;
    }

    static boolean jsonLines(Path file) {
        return file.getFileName().toString().endsWith(".jsonl");
    }

    /** The first line before {@code before} holding the case {@code id}, or 0 where only its key was the same. */
    private static int firstLine(Path file, boolean goldenRequired, String id, int before) {
        boolean jsonLines = jsonLines(file);
        try (Lines lines = Lines.open(file)) {
            for (String line = lines.next(); line != null && lines.number() < before; line = lines.next()) {
                Case c = parse(file, lines.number(), line, jsonLines, goldenRequired);
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
        try (Reader in = Lines.reader(file)) {
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

    /**
     * The lines of a cases file, split at LF only (a CR before it stays on the line), a byte order mark at the
     * start dropped; the last line only if it holds something.
     */
    static final class Lines implements AutoCloseable {
        private final Reader in;
        private final char[] buffer = new char[1 << 13];
        private final StringBuilder line = new StringBuilder();
        private int position;
        private int limit;
        private int number;
        private boolean start = true;

        private Lines(Reader in) {
            this.in = in;
        }

        static Lines open(Path file) throws IOException {
            return new Lines(reader(file));
        }

        static Reader reader(Path file) throws IOException {
            return new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT));
        }

        /** The next line, or {@code null} after the last. */
        String next() throws IOException {
            line.setLength(0);
            while (true) {
                if (position == limit) {
                    limit = in.read(buffer);
                    position = 0;
                    if (limit <= 0) {
                        limit = 0;
                        if (line.length() == 0) {
                            return null;
                        }
                        number++;
                        return line.toString();
                    }
                    if (start && buffer[0] == '\uFEFF') {
                        position = 1;
                    }
                    start = false;
                }
                int from = position;
                while (position < limit && buffer[position] != '\n') {
                    position++;
                }
                line.append(buffer, from, position - from);
                if (position < limit) {
                    position++;
                    number++;
                    return line.toString();
                }
            }
        }

        /** The line {@link #next} gave last, counted from 1. */
        int number() {
            return number;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    /** The case on one line, or {@code null} for a blank line. */
    static Case parse(Path file, int number, String text, boolean jsonLines, boolean goldenRequired) {
        if (!jsonLines) {
            String line = text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
            if (line.isBlank()) {
                return null;
            }
            checkNoNul(file, number, line, "the line");
            return new Case(line, List.of(line), null, null, number);
        }
        String line = text.strip();
        if (line.isEmpty()) {
            return null;
        }
        JsonNode node;
        try {
            node = JSON.readTree(line);
        } catch (JsonProcessingException e) {
            String problem = e.getOriginalMessage();
            if (problem != null && problem.startsWith("Duplicate field ")) {
                throw new CasesFormatException(file, number, "key " + problem.substring("Duplicate field ".length()).replace('\'', '"')
                        + " appears twice; keep one, since only one value can count");
            }
            throw new CasesFormatException(file, number, "not valid JSON (" + problem + ")");
        }
        if (node == null || !node.isObject()) {
            throw new CasesFormatException(file, number, "each line must be one JSON object like {\"id\":\"zero\",\"args\":[\"0\"]}");
        }
        checkKeys(file, number, node, goldenRequired);
        JsonNode id = node.get("id");
        if (id == null || !id.isTextual() || id.asText().isEmpty()) {
            throw new CasesFormatException(file, number, "key \"id\" is " + (id == null ? "missing" : "not a non-empty string (found " + id + ")")
                    + "; give every case a unique id");
        }
        JsonNode args = node.get("args");
        if (args == null || !args.isArray()) {
            throw new CasesFormatException(file, number, "key \"args\" is " + (args == null ? "missing" : "not an array (found " + args + ")")
                    + "; use [] for a case without arguments");
        }
        List<String> arguments = new ArrayList<>();
        for (JsonNode arg : args) {
            if (!arg.isTextual()) {
                throw new CasesFormatException(file, number, "key \"args\" must hold only strings (found " + arg + ")");
            }
            checkNoNul(file, number, arg.asText(), "an argument");
            arguments.add(arg.asText());
        }
        String stdin = optionalText(file, number, node, "stdin");
        String golden = optionalText(file, number, node, "golden");
        if (goldenRequired && golden == null) {
            throw new CasesFormatException(file, number, "key \"golden\" is missing; the three-column grade needs the expected stdout of every case");
        }
        return new Case(id.asText(), arguments, stdin, golden, number, timeout(file, number, node.get("timeout_s")),
                cwd(file, number, node), env(file, number, node.get("env")), expectExit(file, number, node.get("expect_exit")));
    }

    private static void checkKeys(Path file, int line, JsonNode node, boolean threeColumn) {
        Set<String> known = threeColumn ? THREE_COLUMN_KEYS : DIGEST_KEYS;
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String key = names.next();
            if (!known.contains(key)) {
                String hint = key.equals("timeout") ? " (did you mean \"timeout_s\"?)"
                        : THREE_COLUMN_KEYS.contains(key) ? " (only the three-column grade reads it)" : "";
                throw new CasesFormatException(file, line, "unknown key \"" + printable(key) + "\"" + hint + "; a case may give "
                        + known.stream().sorted().toList() + ". Remove or rename it, so that no setting is silently dropped");
            }
        }
    }

    private static Double timeout(Path file, int line, JsonNode value) {
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isNumber() || !TimeoutRange.accepts(value.asDouble())) {
            throw new CasesFormatException(file, line, shown -> "key \"timeout_s\" must be " + TimeoutRange.describe() + " (found " + value
                    + "); leave it out to use " + shown.setting(Setting.TIMEOUT) + " of the goal");
        }
        return value.asDouble();
    }

    private static String cwd(Path file, int line, JsonNode node) {
        String cwd = optionalText(file, line, node, "cwd");
        if (cwd != null && (cwd.isEmpty() || Path.of(cwd).isAbsolute())) {
            throw new CasesFormatException(file, line, shown -> "key \"cwd\" must be a directory relative to " + shown.setting(Setting.WORKING_DIRECTORY)
                    + " (found \"" + cwd + "\"), so the cases file works in any checkout");
        }
        return cwd;
    }

    private static Map<String, String> env(Path file, int line, JsonNode value) {
        if (value == null || value.isNull()) {
            return Map.of();
        }
        if (!value.isObject()) {
            throw new CasesFormatException(file, line, "key \"env\" must be an object of variable names to strings, like {\"LUA_PATH\":\"./?.lua\"} (found "
                    + value + ")");
        }
        Map<String, String> env = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> fields = value.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (field.getKey().isEmpty() || field.getKey().contains("=") || field.getKey().indexOf('\0') >= 0) {
                throw new CasesFormatException(file, line, "key \"env\" holds the variable name \"" + printable(field.getKey())
                        + "\", which no environment can hold; use a name without '=' or NUL");
            }
            if (!field.getValue().isTextual()) {
                throw new CasesFormatException(file, line, "key \"env\": variable \"" + printable(field.getKey()) + "\" must be a string (found "
                        + field.getValue() + "); quote numbers, e.g. \"1\"");
            }
            checkNoNul(file, line, field.getValue().asText(), "the value of env variable " + printable(field.getKey()));
            env.put(field.getKey(), field.getValue().asText());
        }
        return env;
    }

    private static int expectExit(Path file, int line, JsonNode value) {
        if (value == null || value.isNull()) {
            return 0;
        }
        if (!value.isIntegralNumber() || value.asLong() < 0 || value.asLong() > 255) {
            throw new CasesFormatException(file, line, "key \"expect_exit\" must be an exit status from 0 to 255 (found " + value
                    + "); give the status both binaries are expected to exit with");
        }
        return value.asInt();
    }

    private static String optionalText(Path file, int line, JsonNode node, String key) {
        JsonNode value = node.get(key);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw new CasesFormatException(file, line, "key \"" + key + "\" must be a string (found " + value + ")");
        }
        return value.asText();
    }

    private static void checkNoNul(Path file, int line, String value, String what) {
        if (value.indexOf('\0') >= 0) {
            throw new CasesFormatException(file, line, what + " contains a NUL character, which no process can receive as an argument");
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
