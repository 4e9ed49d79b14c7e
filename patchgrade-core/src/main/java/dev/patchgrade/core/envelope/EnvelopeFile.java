package dev.patchgrade.core.envelope;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.Suggestions;
import dev.patchgrade.core.host.HostInfo;
import dev.patchgrade.core.launch.TimeoutRange;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads envelope files, whether written by {@code record-envelope}, by hand or by another tool.
 * Any other key starting with {@code max_} is an error (a typo must never drop a ceiling); other
 * unknown keys are ignored with a warning, so a file may carry notes of its own.
 */
public final class EnvelopeFile {
    private static final ObjectMapper JSON = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    /** The recording command where the caller does not know its execution. */
    private static final String RECORD = Suggestions.PLAIN.rerun("record-envelope", Suggestions.SOME_EXECUTION);
    private static final Set<String> OTHER_KEYS = Set.of("cmd", "timeout_s", "notes", "host", "toolchain", "measured", "slack",
            "spread", "instruction_counter");

    private EnvelopeFile() {}

    public static Envelope read(Path file) {
        return read(file, GradeLog.SILENT, RECORD);
    }

    /**
     * @param log where a warning about keys this version does not read goes
     * @param record the command that records the envelope, as messages should print it
     */
    public static Envelope read(Path file, GradeLog log, String record) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new PatchgradeException(ErrorName.MISSING_ENVELOPE, shown -> file + ": no envelope file. Record one on a known-good build "
                    + "with `" + record + "` and commit it, or fix the path in " + shown.setting(Setting.ENVELOPE));
        } catch (IOException e) {
            throw new PatchgradeException(ErrorName.MISSING_ENVELOPE, file + ": cannot read the envelope (" + e.getMessage() + ")");
        }
        return parse(file, bytes, log, record);
    }

    public static Envelope parse(Path file, byte[] bytes) {
        return parse(file, bytes, GradeLog.SILENT, RECORD);
    }

    public static Envelope parse(Path file, byte[] bytes, GradeLog log, String record) {
        JsonNode root;
        try {
            root = JSON.readTree(bytes);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
            String problem = e.getOriginalMessage();
            if (problem != null && problem.startsWith("Duplicate field ")) {
                throw new EnvelopeFormatException(file, "key " + problem.substring("Duplicate field ".length()).replace('\'', '"')
                        + " appears twice" + where + "; keep one, since only one value can count");
            }
            throw new EnvelopeFormatException(file, "not valid JSON" + where + ": " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new EnvelopeFormatException(file, "cannot be parsed: " + e.getMessage());
        }
        if (root == null || !root.isObject()) {
            throw new EnvelopeFormatException(file, "must hold one JSON object with cmd, timeout_s, max_rss_kb, max_user_us and notes");
        }
        checkKeys(file, root, log);
        List<String> cmd = readCommand(file, root.get("cmd"));
        double timeout = readTimeout(file, root.get("timeout_s"));
        Map<Ceiling, Long> ceilings = new EnumMap<>(Ceiling.class);
        for (Ceiling ceiling : Ceiling.values()) {
            JsonNode value = root.get(ceiling.key());
            boolean required = ceiling == Ceiling.RSS || ceiling == Ceiling.USER_CPU;
            if (value == null || value.isNull()) {
                if (required) {
                    throw new EnvelopeFormatException(file, "key \"" + ceiling.key() + "\" is missing; every envelope needs "
                            + "max_rss_kb and max_user_us (record them with `" + record + "`)");
                }
                continue;
            }
            ceilings.put(ceiling, wholeNumber(file, ceiling.key(), value, ceiling.unit()));
        }
        JsonNode notes = root.get("notes");
        if (notes != null && !notes.isNull() && !notes.isTextual()) {
            throw new EnvelopeFormatException(file, "key \"notes\" must be a string (found " + notes + ")");
        }
        JsonNode toolchain = root.get("toolchain");
        if (toolchain != null && !toolchain.isNull() && !toolchain.isTextual()) {
            throw new EnvelopeFormatException(file, "key \"toolchain\" must be a string (found " + toolchain + ")");
        }
        JsonNode counter = root.get("instruction_counter");
        if (counter != null && !counter.isNull() && !(counter.isTextual() && List.of("perf", "valgrind").contains(counter.asText()))) {
            throw new EnvelopeFormatException(file, "key \"instruction_counter\" must be \"perf\" or \"valgrind\", the counter that measured "
                    + "max_instructions (found " + counter + ")");
        }
        return new Envelope(file, cmd, timeout, ceilings, notes == null || notes.isNull() ? null : notes.asText(),
                readHost(file, root.get("host")), toolchain == null || toolchain.isNull() ? null : toolchain.asText(),
                counter == null || counter.isNull() ? null : counter.asText());
    }

    private static void checkKeys(Path file, JsonNode root, GradeLog log) {
        Set<String> ceilings = Arrays.stream(Ceiling.values()).map(Ceiling::key).collect(Collectors.toCollection(java.util.TreeSet::new));
        for (Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
            String key = names.next();
            if (ceilings.contains(key) || OTHER_KEYS.contains(key)) {
                continue;
            }
            if (key.startsWith("max_")) {
                throw new EnvelopeFormatException(file, "key \"" + key + "\" is not a ceiling patchgrade knows, so the limit it was meant to set "
                        + "would never apply; use one of " + ceilings + " (fix the spelling, or remove the key)");
            }
            log.warn(file + ": key \"" + key + "\" is not one patchgrade reads; it is ignored (a ceiling key starts with max_, e.g. "
                    + "max_wall_ms)");
        }
    }

    private static List<String> readCommand(Path file, JsonNode node) {
        if (node == null || node.isNull()) {
            return List.of();
        }
        if (!node.isArray() || node.isEmpty()) {
            throw new EnvelopeFormatException(file, "key \"cmd\" must be a non-empty array of strings, executable first (found " + node + ")");
        }
        List<String> cmd = new ArrayList<>();
        for (JsonNode part : node) {
            if (!part.isTextual()) {
                throw new EnvelopeFormatException(file, "key \"cmd\" must hold only strings (found " + part + ")");
            }
            cmd.add(part.asText());
        }
        return cmd;
    }

    private static double readTimeout(Path file, JsonNode node) {
        if (node == null || node.isNull()) {
            throw new EnvelopeFormatException(file, "key \"timeout_s\" is missing; give the wall-clock cap in seconds, e.g. \"timeout_s\": 5");
        }
        if (!node.isNumber() || !TimeoutRange.accepts(node.asDouble())) {
            throw new EnvelopeFormatException(file, "key \"timeout_s\" must be " + TimeoutRange.describe() + " (found " + node
                    + "); give the wall-clock cap of one run, e.g. \"timeout_s\": 5");
        }
        return node.asDouble();
    }

    private static long wholeNumber(Path file, String key, JsonNode value, String unit) {
        String what = unit.isEmpty() ? "" : " (" + unit + ")";
        if (!value.isIntegralNumber() || !value.canConvertToLong() || value.asLong() < 0) {
            throw new EnvelopeFormatException(file, "key \"" + key + "\" must be a non-negative whole number" + what + " (found " + value + ")");
        }
        return value.asLong();
    }

    private static HostInfo readHost(Path file, JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isObject()) {
            throw new EnvelopeFormatException(file, "key \"host\" must be an object with os, arch, cpu_model, cores and class (found " + node + ")");
        }
        String className = text(node, "class");
        if (className == null) {
            throw new EnvelopeFormatException(file, "key \"host.class\" is missing; re-record the envelope or remove \"host\"");
        }
        JsonNode cores = node.get("cores");
        return new HostInfo(text(node, "os"), text(node, "arch"), text(node, "cpu_model"),
                cores != null && cores.canConvertToInt() ? cores.asInt() : 0, className);
    }

    private static String text(JsonNode node, String key) {
        JsonNode value = node.get(key);
        return value == null || value.isNull() ? null : value.asText();
    }

    /** The JSON a recording writes: the five basic keys first, then the further ceilings and what explains them. */
    public static ObjectNode recorded(EnvelopeRecording recording) {
        ObjectNode root = JSON.createObjectNode();
        root.putPOJO("cmd", recording.cmd());
        double timeout = recording.timeoutSeconds();
        if (timeout == Math.rint(timeout)) {
            root.put("timeout_s", (long) timeout);
        } else {
            root.put("timeout_s", timeout);
        }
        root.put("max_rss_kb", recording.ceilings().get(Ceiling.RSS));
        root.put("max_user_us", recording.ceilings().get(Ceiling.USER_CPU));
        root.put("notes", recording.notes());
        if (recording.ceilings().containsKey(Ceiling.SYS_CPU)) {
            root.put("max_sys_us", recording.ceilings().get(Ceiling.SYS_CPU));
        }
        if (recording.ceilings().containsKey(Ceiling.TREE_RSS)) {
            root.put("max_tree_rss_kb", recording.ceilings().get(Ceiling.TREE_RSS));
        }
        if (recording.ceilings().containsKey(Ceiling.INSTRUCTIONS)) {
            root.put("max_instructions", recording.ceilings().get(Ceiling.INSTRUCTIONS));
            root.put("instruction_counter", recording.instructionCounter());
        }
        ObjectNode host = root.putObject("host");
        host.put("os", recording.host().os());
        host.put("arch", recording.host().arch());
        host.put("cpu_model", recording.host().cpuModel());
        host.put("cores", recording.host().cores());
        host.put("class", recording.host().className());
        if (recording.toolchain() != null) {
            root.put("toolchain", recording.toolchain());
        }
        ObjectNode measured = root.putObject("measured");
        recording.worst().forEach((ceiling, value) -> measured.put(ceiling.measuredKey(), value));
        var runs = measured.putArray("runs");
        for (EnvelopeRun run : recording.runs()) {
            ObjectNode one = runs.addObject();
            for (Ceiling ceiling : Ceiling.values()) {
                Long value = ceiling.figure(run);
                if (value != null) {
                    one.put(ceiling.measuredKey(), value);
                }
            }
        }
        Map<Ceiling, Spread> spreads = Spread.of(recording.runs());
        if (!spreads.isEmpty()) {
            // How much each figure varied between the runs: what the slack has to absorb, so that a reader can judge it.
            ObjectNode spread = root.putObject("spread");
            spread.put("runs", recording.runs().size());
            spreads.forEach((ceiling, s) -> {
                ObjectNode one = spread.putObject(ceiling.measuredKey());
                one.put("min", s.min());
                one.put("max", s.max());
                one.put("percent", Math.round(s.percent() * 100) / 100.0);
            });
        }
        ObjectNode slack = root.putObject("slack");
        slack.put("rss_percent", recording.slack().rssPercent());
        slack.put("rss_kb", recording.slack().rssKb());
        slack.put("cpu_percent", recording.slack().cpuPercent());
        slack.put("cpu_us", recording.slack().cpuMicros());
        if (recording.ceilings().containsKey(Ceiling.INSTRUCTIONS)) {
            slack.put("instructions_percent", recording.instructionSlackPercent());
        }
        return root;
    }
}
