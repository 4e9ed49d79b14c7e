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
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
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

    public static List<Case> read(Path file, boolean goldenRequired) {
        String text;
        try {
            byte[] bytes = Files.readAllBytes(file);
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (NoSuchFileException e) {
            throw new PatchgradeException(ErrorName.MISSING_CASES, shown -> file + ": no cases file; fix the path in " + shown.setting(Setting.CASES));
        } catch (CharacterCodingException e) {
            throw new CasesFormatException(file, 0, "is not valid UTF-8; save it as UTF-8");
        } catch (IOException e) {
            throw new PatchgradeException(ErrorName.MISSING_CASES, file + ": cannot read the cases file (" + e.getMessage() + ")");
        }
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        checkLineEndings(file, text);
        boolean jsonLines = file.getFileName().toString().endsWith(".jsonl");
        List<Case> cases = jsonLines ? parseJsonLines(file, text, goldenRequired) : parsePlain(file, text);
        if (goldenRequired && !jsonLines) {
            throw new CasesFormatException(file, 0, "the three-column grade needs a .jsonl cases file with id, args and golden on each line");
        }
        if (cases.isEmpty()) {
            throw new CasesFormatException(file, 0, "holds no cases; add at least one "
                    + (jsonLines ? "line like {\"id\":\"zero\",\"args\":[\"0\"]}" : "argument line"));
        }
        Map<String, Integer> seen = new HashMap<>();
        for (Case c : cases) {
            Integer first = seen.putIfAbsent(c.id(), c.line());
            if (first != null) {
                throw new CasesFormatException(file, c.line(), "duplicate case id \"" + printable(c.id()) + "\" (first on line " + first
                        + "); every id must be unique because reports and gold files are keyed by it");
            }
        }
        return List.copyOf(cases);
    }

    private static void checkLineEndings(Path file, String text) {
        int line = 1;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\r' && (i + 1 == text.length() || text.charAt(i + 1) != '\n')) {
                throw new CasesFormatException(file, line, "ends with a bare CR (old Mac line endings), so the lines after it would run "
                        + "together into one case; save the file with LF (or CRLF) line endings");
            }
            if (c == '\n') {
                line++;
            }
        }
    }

    private static List<Case> parsePlain(Path file, String text) {
        List<Case> cases = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].endsWith("\r") ? lines[i].substring(0, lines[i].length() - 1) : lines[i];
            if (line.isBlank()) {
                continue;
            }
            checkNoNul(file, i + 1, line, "the line");
            cases.add(new Case(line, List.of(line), null, null, i + 1));
        }
        return cases;
    }

    private static List<Case> parseJsonLines(Path file, String text, boolean goldenRequired) {
        List<Case> cases = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            int number = i + 1;
            String line = lines[i].strip();
            if (line.isEmpty()) {
                continue;
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
            cases.add(new Case(id.asText(), arguments, stdin, golden, number, timeout(file, number, node.get("timeout_s")),
                    cwd(file, number, node), env(file, number, node.get("env")), expectExit(file, number, node.get("expect_exit"))));
        }
        return cases;
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
