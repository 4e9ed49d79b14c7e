package dev.patchgrade.core.cases;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.launch.TimeoutRange;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** One line of a cases file read as a case: plain arguments, or a JSON object whose keys are checked. */
final class CaseLine {
    private static final ObjectMapper JSON = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    private static final Set<String> DIGEST_KEYS = Set.of("id", "args", "stdin", "timeout_s", "cwd", "env");
    private static final Set<String> THREE_COLUMN_KEYS = Set.of("id", "args", "stdin", "timeout_s", "cwd", "env", "golden", "golden_file",
            "expect_exit");

    private CaseLine() {}

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
        String goldenFile = optionalText(file, number, node, "golden_file");
        if (golden != null && goldenFile != null) {
            throw new CasesFormatException(file, number, "gives both \"golden\" and \"golden_file\"; keep one, since only one expected stdout can count");
        }
        if (goldenFile != null) {
            golden = goldenFromFile(file, number, goldenFile);
        }
        if (goldenRequired && golden == null) {
            throw new CasesFormatException(file, number, "key \"golden\" is missing; the three-column grade needs the expected stdout of every case "
                    + "(inline as \"golden\", or as a file named by \"golden_file\")");
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
                throw new CasesFormatException(file, line, "unknown key \"" + CasesFile.printable(key) + "\"" + hint + "; a case may give "
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
                throw new CasesFormatException(file, line, "key \"env\" holds the variable name \"" + CasesFile.printable(field.getKey())
                        + "\", which no environment can hold; use a name without '=' or NUL");
            }
            if (!field.getValue().isTextual()) {
                throw new CasesFormatException(file, line, "key \"env\": variable \"" + CasesFile.printable(field.getKey()) + "\" must be a string (found "
                        + field.getValue() + "); quote numbers, e.g. \"1\"");
            }
            checkNoNul(file, line, field.getValue().asText(), "the value of env variable " + CasesFile.printable(field.getKey()));
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

    /** Where a case's {@code golden_file} is: relative to the directory of the cases file, which travels with it. */
    static Path goldenPath(Path casesFile, String goldenFile) {
        Path directory = casesFile.toAbsolutePath().getParent();
        return (directory == null ? Path.of(goldenFile) : directory.resolve(goldenFile)).normalize();
    }

    /** The file's bytes, as they are: every byte is compared (a CR stays a CR). */
    private static String goldenFromFile(Path file, int line, String goldenFile) {
        if (goldenFile.isEmpty() || goldenFile.indexOf('\0') >= 0) {
            throw new CasesFormatException(file, line, "key \"golden_file\" must name a file, relative to the cases file's directory");
        }
        Path path = goldenPath(file, goldenFile);
        if (!Files.isRegularFile(path)) {
            throw new CasesFormatException(file, line, "key \"golden_file\" is \"" + CasesFile.printable(goldenFile) + "\", but " + path
                    + (Files.exists(path) ? " is not a file" : " does not exist") + "; create it, or fix \"golden_file\" (it is relative to the "
                    + "cases file's directory, " + path.getParent() + ")");
        }
        try {
            byte[] bytes = Files.readAllBytes(path);
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new CasesFormatException(file, line, "key \"golden_file\": " + path + " is not UTF-8 text; the three-column grade compares "
                    + "text output, so give it as UTF-8");
        } catch (IOException e) {
            throw new CasesFormatException(file, line, "key \"golden_file\": " + path + " cannot be read (" + e.getMessage() + ")");
        }
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
}
