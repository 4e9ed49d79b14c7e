package dev.patchgrade.core.differential;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.cases.Case;
import dev.patchgrade.core.cases.CasesFile;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A generator's stdout read as cases: JSON Lines of {@code id}, {@code args} and optional {@code stdin}, checked
 * as strictly as a cases file (an unknown key, a key given twice or an id used twice is an error naming the line),
 * and two runs' cases compared.
 */
final class GeneratorOutput {
    private static final ObjectMapper JSON = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    private static final Set<String> KEYS = Set.of("id", "args", "stdin");
    private static final Charset UTF8 = StandardCharsets.UTF_8;
    private static final String EXAMPLE = "{\"id\":\"case-1\",\"args\":[\"17\"],\"stdin\":\"3\\n\"}";

    private GeneratorOutput() {}

    /**
     * @param origin what printed the text, for messages: {@code the generator gen.sh (seed 7, count 200)}
     * @param fix what to do about a bad line, for messages
     */
    static List<Case> parse(InputStream text, String origin, String fix) {
        List<Case> cases = new ArrayList<>();
        Map<String, Integer> lines = new HashMap<>();
        int number = 0;
        try {
            InputStream in = new BufferedInputStream(text);
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            for (boolean more = true; more; ) {
                bytes.reset();
                int b;
                while ((b = in.read()) >= 0 && b != '\n') {
                    bytes.write(b);
                }
                more = b >= 0;
                if (!more && bytes.size() == 0) {
                    break;
                }
                number++;
                String line;
                try {
                    // Line by line, so that a byte that is no UTF-8 is named by its line.
                    line = UTF8.newDecoder().onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)
                            .decode(ByteBuffer.wrap(bytes.toByteArray())).toString();
                } catch (CharacterCodingException e) {
                    throw malformed(origin, number, "is not valid UTF-8; print text (an argument or stdin in JSON escapes, \\u00e9)", fix);
                }
                Case c = parseLine(line, number, origin, fix);
                if (c == null) {
                    continue;
                }
                Integer first = lines.putIfAbsent(c.id(), number);
                if (first != null) {
                    throw malformed(origin, number, "repeats the id \"" + CasesFile.printable(c.id()) + "\" of line " + first
                            + "; give every case an id of its own (the reports, the shards and a reproduced failure are keyed by it)", fix);
                }
                cases.add(c);
            }
        } catch (IOException e) {
            throw new PatchgradeException(ErrorName.GENERATOR_FAILED, "cannot read the output of " + origin + " back: " + e.getMessage(), e);
        }
        if (cases.isEmpty()) {
            throw malformed(origin, 0, "printed no cases; print one JSON object a line on stdout, like " + EXAMPLE, fix);
        }
        return cases;
    }

    /** The case on one line, or {@code null} for a blank line. */
    static Case parseLine(String text, int number, String origin, String fix) {
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
                throw malformed(origin, number, "gives the key " + problem.substring("Duplicate field ".length()).replace('\'', '"')
                        + " twice; keep one", fix);
            }
            throw malformed(origin, number, "is not valid JSON (" + firstLine(problem) + "): " + shown(line), fix);
        }
        if (node == null || !node.isObject()) {
            throw malformed(origin, number, "is not a JSON object: " + shown(line) + "; print one object a line, like " + EXAMPLE, fix);
        }
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String key = names.next();
            if (!KEYS.contains(key)) {
                throw malformed(origin, number, "has the unknown key \"" + CasesFile.printable(key) + "\"; a generated case gives id, args and "
                        + "optionally stdin", fix);
            }
        }
        JsonNode id = node.get("id");
        if (id == null || !id.isTextual() || id.asText().isEmpty()) {
            throw malformed(origin, number, "has " + (id == null ? "no key \"id\"" : "an \"id\" that is no non-empty string (" + id + ")")
                    + "; give every case a unique id", fix);
        }
        JsonNode args = node.get("args");
        if (args == null || !args.isArray()) {
            throw malformed(origin, number, "has " + (args == null ? "no key \"args\"" : "\"args\" that are no array (" + args + ")")
                    + "; give [] for a case without arguments", fix);
        }
        List<String> arguments = new ArrayList<>();
        for (JsonNode arg : args) {
            if (!arg.isTextual()) {
                throw malformed(origin, number, "has an argument that is no string (" + arg + "); quote numbers, \"17\"", fix);
            }
            if (arg.asText().indexOf('\0') >= 0) {
                throw malformed(origin, number, "has an argument with a NUL character, which no process can receive", fix);
            }
            arguments.add(arg.asText());
        }
        JsonNode stdin = node.get("stdin");
        if (stdin != null && !stdin.isNull() && !stdin.isTextual()) {
            throw malformed(origin, number, "has a \"stdin\" that is no string (" + stdin + ")", fix);
        }
        return new Case(id.asText(), arguments, stdin == null || stdin.isNull() ? null : stdin.asText(), null, number);
    }

    /**
     * Where two runs' cases part, in words, or {@code null} where they are the same cases in the same order.
     * Only what a program receives counts: ids, arguments and stdin, not how the lines were spelled.
     */
    static String firstDifference(List<Case> first, List<Case> second) {
        for (int i = 0; i < Math.min(first.size(), second.size()); i++) {
            Case a = first.get(i);
            Case b = second.get(i);
            if (!a.id().equals(b.id()) || !a.args().equals(b.args()) || !Objects.equals(a.stdin(), b.stdin())) {
                return "case " + (i + 1) + " differs: the first run printed " + describe(a) + " (line " + a.line() + "), the second " + describe(b)
                        + " (line " + b.line() + ")";
            }
        }
        if (first.size() != second.size()) {
            return "the first run printed " + first.size() + " case(s), the second " + second.size() + " (the first " + Math.min(first.size(),
                    second.size()) + " the same)";
        }
        return null;
    }

    static String describe(Case c) {
        return "\"" + CasesFile.printable(c.id()) + "\" with args " + shown(c.args().toString())
                + (c.stdin() == null ? "" : " and stdin " + shown("\"" + c.stdin() + "\""));
    }

    private static PatchgradeException malformed(String origin, int line, String problem, String fix) {
        return new PatchgradeException(ErrorName.MALFORMED_GENERATED_CASES, origin + (line > 0 ? ": output line " + line : "") + " " + problem
                + ". " + fix);
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "unreadable";
        }
        int end = text.indexOf('\n');
        return end < 0 ? text : text.substring(0, end);
    }

    /** A line as a message may quote it: control characters escaped, long lines cut. */
    private static String shown(String line) {
        return CasesFile.printable(line);
    }
}
