package dev.patchgrade.core.digest;

import dev.patchgrade.core.ErrorName;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.grade.Setting;
import dev.patchgrade.core.grade.Suggestions;
import dev.patchgrade.core.report.AtomicFiles;
import dev.patchgrade.core.report.JsonReports;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A directory of digest files, one JSON object per case. Cases are matched by their {@code case}
 * key, not by file name, so a directory written by hand or by another tool works.
 */
public final class GoldStore {
    private GoldStore() {}

    /**
     * What a digest directory holds. {@code toolchain} and {@code normalize} are the same in every file.
     * Of the cases it keeps only their ids; {@link #lookup} finds a case's file again when it is graded.
     */
    public static final class Gold {
        private final Set<String> ids;
        private final Lookup lookup;
        private final String toolchain;
        private final List<NormalizeRule> normalize;

        private Gold(Set<String> ids, Lookup lookup, String toolchain, List<NormalizeRule> normalize) {
            this.ids = ids;
            this.lookup = lookup;
            this.toolchain = toolchain;
            this.normalize = normalize;
        }

        public String toolchain() {
            return toolchain;
        }

        public List<NormalizeRule> normalize() {
            return normalize;
        }

        /** The recorded case ids, in the order of their files' names. */
        public Set<String> caseIds() {
            return Collections.unmodifiableSet(ids);
        }

        public boolean has(String caseId) {
            return ids.contains(caseId);
        }

        /** How to read a case's digest again, without the ids: what a grade keeps once the case set is checked. */
        public Lookup lookup() {
            return lookup;
        }

        public DigestTuple tuple(String caseId) {
            return ids.contains(caseId) ? lookup.tuple(caseId) : null;
        }

        public StreamExcerpts excerpts(String caseId) {
            return ids.contains(caseId) ? lookup.excerpts(caseId) : null;
        }
    }

    /**
     * Reads one case's digest from its gold file when it is graded. Measured at 100,000 cases under -Xmx128m,
     * every object a grade holds per case stays in the old generation and pushes the young one into heap not yet
     * touched, raising Maven's peak RSS; so nothing per case is held, only the files not named after their case.
     *
     * @param renamed the case ids whose file is not {@link SafeNames#jsonFile} of the id, and that file's name
     */
    public record Lookup(Path directory, TimeBuckets buckets, Map<String, String> renamed) {
        /** The case's recorded tuple, read from the file that held it when the directory was read. */
        public DigestTuple tuple(String caseId) {
            Path file = file(caseId);
            return GoldStore.tuple(file, caseNode(file, caseId), buckets);
        }

        /** The case's excerpts, or {@code null} where its file keeps none. */
        public StreamExcerpts excerpts(String caseId) {
            Path file = file(caseId);
            return excerptsOf(file, caseNode(file, caseId));
        }

        private Path file(String caseId) {
            return directory.resolve(renamed.getOrDefault(caseId, SafeNames.jsonFile(caseId)));
        }

        /** A file that no longer holds its case was rewritten behind the grade's back: never a digest of another case. */
        private static JsonNode caseNode(Path file, String caseId) {
            JsonNode node = Files.isRegularFile(file) ? parse(file) : null;
            if (node == null || !caseId.equals(node.path("case").asText(null))) {
                throw new PatchgradeException(ErrorName.MALFORMED_GOLD, file + ": no longer holds case \""
                        + dev.patchgrade.core.cases.CasesFile.printable(caseId) + "\", which it held when the gold was read; something "
                        + "rewrote the gold directory during the grade");
            }
            return node;
        }
    }

    public static boolean hasDigests(Path directory) {
        if (!Files.isDirectory(directory)) {
            return false;
        }
        try (Stream<Path> files = Files.list(directory)) {
            return files.findAny().isPresent();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Gold read(Path directory, TimeBuckets buckets) {
        return read(directory, buckets, Suggestions.PLAIN.rerun("record-digest", Suggestions.SOME_EXECUTION),
                Suggestions.PLAIN.rerun("record-digest", Suggestions.SOME_EXECUTION, Setting.FORCE.is("true")));
    }

    /**
     * @param record the command that records the directory where there is none, as messages should print it
     * @param rerecord the command that records it over the one there
     */
    public static Gold read(Path directory, TimeBuckets buckets, String record, String rerecord) {
        if (!Files.isDirectory(directory)) {
            throw new PatchgradeException(ErrorName.MISSING_GOLD, shown -> directory + ": no gold directory. Record one from a known-good build "
                    + "with `" + record + "` and commit it, or fix the path in " + shown.setting(Setting.GOLD));
        }
        // Names, not paths: with 100,000 cases the list is large while the directory is read.
        List<String> names;
        try (Stream<Path> list = Files.list(directory)) {
            names = list.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json")).sorted().toList();
        } catch (IOException e) {
            throw new PatchgradeException(ErrorName.MISSING_GOLD, directory + ": cannot list the gold directory (" + e.getMessage() + ")");
        }
        Set<String> ids = new LinkedHashSet<>();
        Map<String, String> renamed = new HashMap<>();
        String toolchain = null;
        List<NormalizeRule> normalize = null;
        Path first = null;
        for (String name : names) {
            Path file = directory.resolve(name);
            JsonNode node = parse(file);
            DigestTuple tuple = tuple(file, node, buckets);
            if (!ids.add(tuple.caseId())) {
                throw new PatchgradeException(ErrorName.MALFORMED_GOLD, file + ": case \"" + tuple.caseId() + "\" is also in "
                        + directory.resolve(renamed.getOrDefault(tuple.caseId(), SafeNames.jsonFile(tuple.caseId()))) + "; keep one digest per case");
            }
            if (!name.equals(SafeNames.jsonFile(tuple.caseId()))) {
                renamed.put(tuple.caseId(), name);
            }
            excerptsOf(file, node); // checked now, so that a malformed excerpt fails the read, not the grade of a drifting case
            String fileToolchain = node.hasNonNull("toolchain") ? node.get("toolchain").asText() : null;
            List<NormalizeRule> fileNormalize = normalizeRules(file, node.get("normalize"));
            if (first == null) {
                first = file;
                toolchain = fileToolchain;
                normalize = fileNormalize;
            } else if (!Objects.equals(toolchain, fileToolchain) || !normalize.equals(fileNormalize)) {
                throw new PatchgradeException(ErrorName.MALFORMED_GOLD, file + ": its toolchain or normalize rules differ from " + first
                        + "; a gold directory is recorded in one go, so re-record it with `" + rerecord + "`");
            }
        }
        return new Gold(ids, new Lookup(directory, buckets, renamed), toolchain, normalize == null ? List.of() : normalize);
    }

    /** A file's excerpts, or {@code null} where it has neither. */
    private static StreamExcerpts excerptsOf(Path file, JsonNode node) {
        StreamExcerpts excerpt = new StreamExcerpts(optionalText(file, node, "stdout_excerpt"), optionalText(file, node, "stderr_excerpt"));
        return excerpt.stdout() != null || excerpt.stderr() != null ? excerpt : null;
    }

    private static JsonNode parse(Path file) {
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

    private static DigestTuple tuple(Path file, JsonNode node, TimeBuckets buckets) {
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
        String bucket = null;
        Long millis = null;
        if (buckets.enabled()) {
            if (node.get("time_bucket") == null) {
                throw new PatchgradeException(ErrorName.MALFORMED_GOLD, shown -> file + ": key \"time_bucket\" is missing (was the gold recorded "
                        + "with " + shown.configured(Setting.TIME_BUCKETS.is("off")) + "?); grade with " + shown.once(Setting.TIME_BUCKETS.is("off"))
                        + " too, or re-record with time buckets");
            }
            bucket = text(file, node, "time_bucket");
            if (!buckets.knows(bucket)) {
                String unknown = bucket;
                throw new PatchgradeException(ErrorName.MALFORMED_GOLD, shown -> file + ": key \"time_bucket\" is \"" + unknown + "\", not one of "
                        + "the buckets " + buckets.names() + " of " + shown.setting(Setting.TIME_BUCKETS) + "; set it to the cutoffs the gold "
                        + "was recorded with");
            }
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

    private static List<NormalizeRule> normalizeRules(Path file, JsonNode node) {
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
            node.put("time_bucket", tuple.timeBucket());
        }
        if (tuple.timeMs() != null) {
            node.put("time_ms", tuple.timeMs());
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

    /**
     * Replaces {@code directory} with exactly these digests. They are written to a sibling first and
     * swapped in at the end, so a failure leaves the old directory as it was and no stale file survives.
     */
    public static void replace(Path directory, List<DigestTuple> tuples, String toolchain, List<NormalizeRule> normalize) {
        replace(directory, tuples, toolchain, normalize, Map.of());
    }

    /** @param excerpts by case id; cases without an entry are written without excerpts */
    public static void replace(Path directory, List<DigestTuple> tuples, String toolchain, List<NormalizeRule> normalize,
            Map<String, StreamExcerpts> excerpts) {
        try (Writer writer = Writer.open(directory, toolchain, normalize)) {
            for (DigestTuple tuple : tuples) {
                writer.write(tuple, excerpts.get(tuple.caseId()));
            }
            writer.commit();
        }
    }

    /**
     * Writes a new gold directory one case at a time, into a sibling that {@link #commit} swaps in for
     * {@code directory}; closed without a commit, the sibling goes and the old directory stays as it was.
     * {@link #write} may be called from several threads, each for another case.
     */
    public static final class Writer implements AutoCloseable {
        private final Path target;
        private final Path fresh;
        private final String toolchain;
        private final List<NormalizeRule> normalize;

        private Writer(Path target, Path fresh, String toolchain, List<NormalizeRule> normalize) {
            this.target = target;
            this.fresh = fresh;
            this.toolchain = toolchain;
            this.normalize = normalize;
        }

        public static Writer open(Path directory, String toolchain, List<NormalizeRule> normalize) {
            Path target = directory.toAbsolutePath().normalize();
            Path parent = target.getParent();
            try {
                Files.createDirectories(parent);
                return new Writer(target, AtomicFiles.createDirectory(parent, "." + target.getFileName() + ".new-"), toolchain, normalize);
            } catch (IOException e) {
                throw failed(target, e);
            }
        }

        /** @param excerpts the case's normalised stream excerpts, or {@code null} to write none */
        public void write(DigestTuple tuple, StreamExcerpts excerpts) {
            try {
                Files.write(fresh.resolve(SafeNames.jsonFile(tuple.caseId())),
                        (JsonReports.MAPPER.writeValueAsString(json(tuple, toolchain, normalize, excerpts)) + "\n").getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw failed(target, e);
            }
        }

        /** Swaps the written digests in for the old directory, which goes: no stale file survives. */
        public void commit() {
            Path parent = target.getParent();
            try {
                Path old = null;
                if (Files.exists(target)) {
                    old = parent.resolve("." + target.getFileName() + ".old-" + System.nanoTime());
                    Files.move(target, old, StandardCopyOption.ATOMIC_MOVE);
                }
                Files.move(fresh, target, StandardCopyOption.ATOMIC_MOVE);
                if (old != null) {
                    deleteTree(old);
                }
            } catch (IOException e) {
                throw failed(target, e);
            }
        }

        /** Without a commit, removes what was written. */
        @Override
        public void close() {
            try {
                if (Files.exists(fresh)) {
                    deleteTree(fresh);
                }
            } catch (IOException e) {
                throw failed(target, e);
            }
        }

        private static PatchgradeException failed(Path target, IOException e) {
            return new PatchgradeException(ErrorName.WRITE_FAILED, "cannot write the digest directory " + target + ": " + e.getMessage(), e);
        }
    }

    static void deleteTree(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
