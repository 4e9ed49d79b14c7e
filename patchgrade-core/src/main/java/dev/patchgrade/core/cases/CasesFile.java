package dev.patchgrade.core.cases;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.patchgrade.core.PatchgradeException;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a cases file. {@code .jsonl} files hold one JSON object a line ({@code id}, {@code args},
 * optional {@code stdin}, and {@code golden} for the three-column grade); any other file is plain
 * text, one argument a line, the line being both the id and the single argument.
 */
public final class CasesFile {
    private static final ObjectMapper JSON = new ObjectMapper();

    private CasesFile() {}

    public static List<Case> read(Path file, boolean goldenRequired) {
        String text;
        try {
            byte[] bytes = Files.readAllBytes(file);
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (NoSuchFileException e) {
            throw new PatchgradeException("missing_cases", file + ": no cases file; fix the <cases> path");
        } catch (CharacterCodingException e) {
            throw new CasesFormatException(file, 0, "is not valid UTF-8; save it as UTF-8");
        } catch (IOException e) {
            throw new PatchgradeException("missing_cases", file + ": cannot read the cases file (" + e.getMessage() + ")");
        }
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
                throw new CasesFormatException(file, number, "not valid JSON (" + e.getOriginalMessage() + ")");
            }
            if (node == null || !node.isObject()) {
                throw new CasesFormatException(file, number, "each line must be one JSON object like {\"id\":\"zero\",\"args\":[\"0\"]}");
            }
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
            cases.add(new Case(id.asText(), arguments, stdin, golden, number));
        }
        return cases;
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
