package dev.patchgrade.core.digest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.report.JsonReports;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One gold file: a JSON object with the case's digest ({@code case}, {@code exit}, the two hashes, {@code sanitizer},
 * {@code time_bucket}, optional {@code time_ms}, {@code toolchain}, {@code normalize} and excerpts), read with a
 * message naming the file and the key for anything malformed, and written the same way every time.
 */
public final class GoldFile {
    private GoldFile() {}

    /** A file's excerpts, or {@code null} where it has neither. */
    static StreamExcerpts excerptsOf(Path file, JsonNode node) {
        StreamExcerpts excerpt = new StreamExcerpts(optionalText(file, node, "stdout_excerpt"), optionalText(file, node, "stderr_excerpt"));
        return excerpt.stdout() != null || excerpt.stderr() != null ? excerpt : null;
    }

    static JsonNode parse(Path file) {
        try {
            JsonNode node = JsonReports.MAPPER.readTree(Files.readAllBytes(file));
            if (node == null || !node.isObject()) {
                throw new PatchgradeException(ErrorName.MALFORMED_GOLD, file + ": must hold one JSON object with case, exit, stdout_sha256, "
                        + "stderr_sha256, sanitizer and time_bucket");
            }
            return node;
        } catch (JsonProcessingException e) {
            int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            throw new PatchgradeException(ErrorName.MALFORMED_GOLD, file + ":" + line + ": not valid JSON (" + e.getOriginalMessage() + ")");
        } catch (IOException e) {
            throw new PatchgradeException(ErrorName.MALFORMED_GOLD, file + ": cannot be read (" + e.getMessage() + ")");
        }
    }

    static DigestTuple tuple(Path file, JsonNode node, TimeBuckets buckets) {
        JsonNode id = node.get("case");
        if (id == null || !id.isTextual()) {
            throw new PatchgradeException(ErrorName.MALFORMED_GOLD, file + ": key \"case\" must be the case id as a string (found " + id + ")");
        }
        JsonNode exit = node.get("exit");
        if (exit != null && !exit.isNull() && !exit.canConvertToInt()) {
            throw new PatchgradeException(ErrorName.MALFORMED_GOLD, file + ": key \"exit\" must be an integer or null (found " + exit + ")");
        }
        String sanitizerName = text(file, node, "sanitizer");
        SanitizerClass sanitizer = SanitizerClass.fromWire(sanitizerName).orElseThrow(() -> new PatchgradeException(ErrorName.MALFORMED_GOLD,
                file + ": key \"sanitizer\" is \"" + sanitizerName + "\"; it must be one of clean, asan, ubsan, timeout, crash, unavailable"));
        TimeBucket bucket = null;
        Long millis = null;
        if (buckets.enabled()) {
            if (node.get("time_bucket") == null) {
                throw new PatchgradeException(ErrorName.MALFORMED_GOLD, shown -> file + ": key \"time_bucket\" is missing (was the gold recorded "
                        + "with " + shown.configured(Setting.TIME_BUCKETS.is("off")) + "?); grade with " + shown.once(Setting.TIME_BUCKETS.is("off"))
                        + " too, or re-record with time buckets");
            }
            String unknown = text(file, node, "time_bucket");
            bucket = buckets.named(unknown).orElseThrow(() -> new PatchgradeException(ErrorName.MALFORMED_GOLD, shown -> file
                    + ": key \"time_bucket\" is \"" + unknown + "\", not one of the buckets " + buckets.names() + " of "
                    + shown.setting(Setting.TIME_BUCKETS) + "; set it to the cutoffs the gold was recorded with"));
            JsonNode time = node.get("time_ms");
            if (time != null && !time.isNull() && (!time.isIntegralNumber() || !time.canConvertToLong() || time.asLong() < 0)) {
                throw new PatchgradeException(ErrorName.MALFORMED_GOLD, file + ": key \"time_ms\" must be a non-negative whole number of "
                        + "milliseconds or null (found " + time + ")");
            }
            millis = time == null || time.isNull() ? null : time.asLong();
        }
        return new DigestTuple(id.asText(), exit == null || exit.isNull() ? null : exit.asInt(), hash(file, node, "stdout_sha256"),
                hash(file, node, "stderr_sha256"), sanitizer, bucket, millis);
    }

    private static String text(Path file, JsonNode node, String key) {
        JsonNode value = node.get(key);
        if (value == null || !value.isTextual()) {
            throw new PatchgradeException(ErrorName.MALFORMED_GOLD, file + ": key \"" + key + "\" must be a string (found " + value + ")");
        }
        return value.asText();
    }

    private static String optionalText(Path file, JsonNode node, String key) {
        JsonNode value = node.get(key);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw new PatchgradeException(ErrorName.MALFORMED_GOLD, file + ": key \"" + key + "\" must be a string (found " + value + ")");
        }
        return value.asText();
    }

    private static String hash(Path file, JsonNode node, String key) {
        JsonNode value = node.get(key);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual() || !isSha256(value.asText())) {
            throw new PatchgradeException(ErrorName.MALFORMED_GOLD, file + ": key \"" + key + "\" must be a SHA-256 in hex or null (found " + value + ")");
        }
        return value.asText().toLowerCase(java.util.Locale.ROOT);
    }

    /** By hand: String.matches compiles its pattern at every call, twice per gold file. */
    private static boolean isSha256(String text) {
        if (text.length() != 64) {
            return false;
        }
        for (int i = 0; i < 64; i++) {
            if (Character.digit(text.charAt(i), 16) < 0 || text.charAt(i) > 'f') {
                return false;
            }
        }
        return true;
    }

    /**
     * What the file's time measures: its {@code time_basis}, or {@code null} where it names none (a gold recorded
     * before there was a choice, or by hand: its times are wall times).
     */
    static TimeBasis timeBasis(Path file, JsonNode node) {
        JsonNode value = node.get("time_basis");
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw TimeBasis.unknownInGold(file, value.toString());
        }
        return TimeBasis.named(value.asText()).filter(b -> b.wireName().equals(value.asText()))
                .orElseThrow(() -> TimeBasis.unknownInGold(file, value.asText()));
    }

    static List<NormalizeRule> normalizeRules(Path file, JsonNode node) {
        if (node == null || node.isNull()) {
            return List.of();
        }
        if (!node.isArray()) {
            throw new PatchgradeException(ErrorName.MALFORMED_GOLD, file + ": key \"normalize\" must be an array of {pattern, replacement}");
        }
        List<NormalizeRule> rules = new ArrayList<>();
        for (JsonNode rule : node) {
            rules.add(rule.hasNonNull("rule") ? NormalizeRule.named(rule.get("rule").asText())
                    : new NormalizeRule(rule.path("pattern").asText(null), rule.path("replacement").asText("")));
        }
        return rules;
    }

    public static ObjectNode json(DigestTuple tuple, String toolchain, List<NormalizeRule> normalize) {
        return json(tuple, toolchain, normalize, null);
    }

    /** @param excerpts the normalised stream excerpts to keep beside the hashes, or {@code null} */
    public static ObjectNode json(DigestTuple tuple, String toolchain, List<NormalizeRule> normalize, StreamExcerpts excerpts) {
        return json(tuple, toolchain, normalize, excerpts, null);
    }

    /** @param basis what {@code time_bucket} and {@code time_ms} measure, written beside them; {@code null} to write none */
    public static ObjectNode json(DigestTuple tuple, String toolchain, List<NormalizeRule> normalize, StreamExcerpts excerpts, TimeBasis basis) {
        ObjectNode node = JsonReports.MAPPER.createObjectNode();
        node.put("case", tuple.caseId());
        if (tuple.exit() == null) {
            node.putNull("exit");
        } else {
            node.put("exit", tuple.exit());
        }
        node.put("stdout_sha256", tuple.stdoutSha256());
        node.put("stderr_sha256", tuple.stderrSha256());
        node.put("sanitizer", tuple.sanitizer().wireName());
        if (tuple.timeBucket() != null) {
            node.put("time_bucket", tuple.timeBucket().label());
        }
        if (tuple.timeMs() != null) {
            node.put("time_ms", tuple.timeMs());
        }
        if (tuple.timeBucket() != null && basis != null) {
            node.put("time_basis", basis.wireName());
        }
        if (toolchain != null) {
            node.put("toolchain", toolchain);
        }
        if (!normalize.isEmpty()) {
            ArrayNode rules = node.putArray("normalize");
            for (NormalizeRule rule : normalize) {
                if (rule.name() != null) {
                    rules.addObject().put("rule", rule.name());
                } else {
                    rules.addObject().put("pattern", rule.pattern()).put("replacement", rule.replacement());
                }
            }
        }
        if (excerpts != null && excerpts.stdout() != null) {
            node.put("stdout_excerpt", excerpts.stdout());
        }
        if (excerpts != null && excerpts.stderr() != null) {
            node.put("stderr_excerpt", excerpts.stderr());
        }
        return node;
    }
}
