package dev.patchgrade.core.digest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.Suggestions;
import dev.patchgrade.core.cases.IdSet;
import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * A directory of digest files, one JSON object per case. Cases are matched by their {@code case}
 * key, not by file name, so a directory written by hand or by another tool works.
 */
public final class GoldStore {
    private GoldStore() {}

    /**
     * What a digest directory holds. {@code toolchain} and {@code normalize} are the same in every file.
     * Of the cases it keeps only a key per id ({@link IdSet}); {@link #lookup} finds a case's file again when it
     * is graded, and {@link #caseIds} reads the ids again where a message lists them.
     */
    public static final class Gold {
        private final IdSet ids;
        private final Lookup lookup;
        private final String toolchain;
        private final List<NormalizeRule> normalize;
        private final TimeBasis timeBasis;
        private final String rerecord;

        private Gold(IdSet ids, Lookup lookup, String toolchain, List<NormalizeRule> normalize, TimeBasis timeBasis, String rerecord) {
            this.ids = ids;
            this.lookup = lookup;
            this.toolchain = toolchain;
            this.normalize = normalize;
            this.timeBasis = timeBasis;
            this.rerecord = rerecord;
        }

        /** What the recorded times measure, the same in every file; {@code null} where the files name nothing (wall time, then). */
        public TimeBasis timeBasis() {
            return timeBasis;
        }

        public String toolchain() {
            return toolchain;
        }

        public List<NormalizeRule> normalize() {
            return normalize;
        }

        /** The recorded case ids, in the order of their files' names: read from the directory again. */
        public Set<String> caseIds() {
            Set<String> ids = new LinkedHashSet<>();
            readInNameOrder(lookup.directory(), lookup.buckets(), ids, rerecord);
            return Collections.unmodifiableSet(ids);
        }

        /** A key per recorded case: equal keys are a reason to believe the ids equal, not a proof (see {@link IdSet}). */
        public IdSet keys() {
            return ids;
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
     * Finds one case's digest when it is graded. Measured at 100,000 cases under -Xmx128m, every object a grade
     * holds per case stays in the old generation and pushes the young one into heap not yet touched, raising
     * Maven's peak RSS; so no object per case is held: the tuples packed in {@link GoldTuples} up to
     * {@link GoldTuples#KEPT} cases (beyond, each case's file is read again), and the names of the files not
     * named after their case.
     *
     * @param renamed the case ids whose file is not {@link SafeNames#jsonFile} of the id, and that file's name
     * @param tuples every tuple as the directory was read, or {@code null} where they were not kept
     */
    public record Lookup(Path directory, TimeBuckets buckets, Map<String, String> renamed, GoldTuples tuples) {
        /**
         * The case's recorded tuple: as it was when the directory was read (the oracle guard fails the grade should
         * the file change before it ends), else read again from the file that held it then.
         */
        public DigestTuple tuple(String caseId) {
            DigestTuple kept = tuples == null ? null : tuples.get(caseId);
            if (kept != null) {
                return kept;
            }
            Path file = file(caseId);
            return GoldFile.tuple(file, caseNode(file, caseId), buckets);
        }

        /** The case's excerpts, or {@code null} where its file keeps none. */
        public StreamExcerpts excerpts(String caseId) {
            Path file = file(caseId);
            return GoldFile.excerptsOf(file, caseNode(file, caseId));
        }

        private Path file(String caseId) {
            return directory.resolve(renamed.getOrDefault(caseId, SafeNames.jsonFile(caseId)));
        }

        /** A file that no longer holds its case was rewritten behind the grade's back: never a digest of another case. */
        private static JsonNode caseNode(Path file, String caseId) {
            JsonNode node = Files.isRegularFile(file) ? GoldFile.parse(file) : null;
            if (node == null || !caseId.equals(node.path("case").asText(null))) {
                throw new PatchgradeException(ErrorName.MALFORMED_GOLD, file + ": no longer holds case \""
                        + dev.patchgrade.core.cases.CasesFile.printable(caseId) + "\", which it held when the gold was read; something "
                        + "rewrote the gold directory during the grade");
            }
            return node;
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
        return read(directory, buckets, record, rerecord, GoldTuples.KEPT);
    }

    /** @param kept the most tuples kept from the read (tests: a small gold directory read as a large one is) */
    static Gold read(Path directory, TimeBuckets buckets, String record, String rerecord, int kept) {
        if (!Files.isDirectory(directory)) {
            throw new PatchgradeException(ErrorName.MISSING_GOLD, shown -> directory + ": no gold directory. Record one from a known-good build "
                    + "with `" + record + "` and commit it, or fix the path in " + shown.setting(Setting.GOLD));
        }
        // In the directory's own order, nothing per file held but its key: the sorted names and ids of 100,000 files
        // lived long enough to be promoted, and stayed in the old generation for the grade (issue 15). Whatever this
        // pass finds wrong is read again in name order, so that the message names the same file as always.
        IdSet keys = new IdSet();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, p -> p.getFileName().toString().endsWith(".json"))) {
            Read read = readFiles(files, buckets, keys::add, null, new GoldTuples(kept));
            if (read != null) {
                return new Gold(keys, new Lookup(directory, buckets, read.renamed, read.tuples), read.toolchain, read.normalize, read.timeBasis,
                        rerecord);
            }
        } catch (IOException | DirectoryIteratorException | PatchgradeException e) {
            // the same problem, named in name order below
        }
        Set<String> ids = new LinkedHashSet<>();
        Read read = readInNameOrder(directory, buckets, ids, rerecord);
        IdSet named = new IdSet();
        ids.forEach(named::add);
        return new Gold(named, new Lookup(directory, buckets, read.renamed, read.tuples), read.toolchain, read.normalize, read.timeBasis, rerecord);
    }

    /**
     * What a pass over the gold files found.
     *
     * @param tuples every tuple read, or {@code null} where this pass kept none
     */
    private record Read(Map<String, String> renamed, String toolchain, List<NormalizeRule> normalize, TimeBasis timeBasis, GoldTuples tuples) {}

    /** Every gold file in name order, its ids added to {@code ids}; a problem is an error naming the file. */
    private static Read readInNameOrder(Path directory, TimeBuckets buckets, Set<String> ids, String rerecord) {
        // Names, not paths: with 100,000 cases the list is large while the directory is read.
        List<String> names;
        try (Stream<Path> list = Files.list(directory)) {
            names = list.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json")).sorted().toList();
        } catch (IOException e) {
            throw new PatchgradeException(ErrorName.MISSING_GOLD, directory + ": cannot list the gold directory (" + e.getMessage() + ")");
        }
        // Only when the first pass found something wrong, or a message needs the ids: the tuples are not kept.
        return readFiles(() -> names.stream().map(directory::resolve).iterator(), buckets, ids::add, rerecord, null);
    }

    /**
     * One pass over the gold files. {@code newId} adds a case and says whether it was new. With {@code rerecord} (a read in
     * name order) a duplicate case or a file recorded apart from the others is an error naming that file; without it the
     * pass returns {@code null} there, and only a read in name order says which file is wrong.
     */
    private static Read readFiles(Iterable<Path> files, TimeBuckets buckets, Predicate<String> newId, String rerecord, GoldTuples keep) {
        Map<String, String> renamed = new HashMap<>();
        GoldTuples tuples = keep;
        String toolchain = null;
        List<NormalizeRule> normalize = null;
        TimeBasis timeBasis = null;
        Path first = null;
        for (Path file : files) {
            JsonNode node = GoldFile.parse(file);
            DigestTuple tuple = GoldFile.tuple(file, node, buckets);
            String name = file.getFileName().toString();
            if (!newId.test(tuple.caseId())) {
                if (rerecord == null) {
                    return null;
                }
                throw new PatchgradeException(ErrorName.MALFORMED_GOLD, file + ": case \"" + tuple.caseId() + "\" is also in "
                        + file.resolveSibling(renamed.getOrDefault(tuple.caseId(), SafeNames.jsonFile(tuple.caseId()))) + "; keep one digest per case");
            }
            if (!name.equals(SafeNames.jsonFile(tuple.caseId()))) {
                renamed.put(tuple.caseId(), name);
            }
            if (tuples != null && !tuples.add(tuple)) {
                tuples = null; // more cases than are kept, or two ids sharing a 128-bit key: each file is read again when graded
            }
            GoldFile.excerptsOf(file, node); // checked now, so that a malformed excerpt fails the read, not the grade of a drifting case
            String fileToolchain = node.hasNonNull("toolchain") ? node.get("toolchain").asText() : null;
            List<NormalizeRule> fileNormalize = GoldFile.normalizeRules(file, node.get("normalize"));
            TimeBasis fileBasis = GoldFile.timeBasis(file, node);
            if (first == null) {
                first = file;
                toolchain = fileToolchain;
                normalize = fileNormalize;
                timeBasis = fileBasis;
            } else if (!Objects.equals(toolchain, fileToolchain) || !normalize.equals(fileNormalize) || timeBasis != fileBasis) {
                if (rerecord == null) {
                    return null;
                }
                throw new PatchgradeException(ErrorName.MALFORMED_GOLD, file + ": its toolchain, normalize rules or time basis differ from " + first
                        + "; a gold directory is recorded in one go, so re-record it with `" + rerecord + "`");
            }
        }
        return new Read(renamed, toolchain, normalize == null ? List.of() : normalize, timeBasis, tuples == null ? null : tuples.seal());
    }

    static void deleteTree(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
