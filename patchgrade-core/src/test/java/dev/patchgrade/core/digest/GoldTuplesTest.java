package dev.patchgrade.core.digest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The gold tuples a grade keeps from reading the gold directory, packed: each comes back as it was read. */
class GoldTuplesTest {
    private static final String E = DigestTuple.EMPTY_SHA256;
    private static final String F = "0123456789abcdef0000ffff8000000180000000ffffffff7fffffffc0ffee00";

    @TempDir
    Path dir;

    @Test
    void everyFieldComesBackAsAddedNullsAndExtremesIncluded() {
        List<DigestTuple> tuples = List.of(new DigestTuple("fast", 0, F, E, SanitizerClass.CLEAN, Buckets.label("lt_50ms"), 7L),
                new DigestTuple("../odd id", -11, E, F, SanitizerClass.ASAN, Buckets.label("lt_5s"), 0L),
                new DigestTuple("slow", Integer.MIN_VALUE, F, F, SanitizerClass.UBSAN, Buckets.label("gt_5s"), Long.MAX_VALUE),
                new DigestTuple("hung", null, null, null, SanitizerClass.TIMEOUT, Buckets.label("gt_5s"), null),
                new DigestTuple("no buckets", Integer.MAX_VALUE, "f".repeat(64), "0".repeat(64), SanitizerClass.CRASH, null, null),
                new DigestTuple("", 255, E, E, SanitizerClass.UNAVAILABLE, null, 1L));
        GoldTuples kept = new GoldTuples();
        tuples.forEach(t -> assertThat(kept.add(t)).isTrue());
        kept.seal();
        assertThat(kept.size()).isEqualTo(tuples.size());
        for (DigestTuple tuple : tuples) {
            assertThat(kept.get(tuple.caseId())).isEqualTo(tuple);
        }
        assertThat(kept.get("absent")).isNull();
        assertThat(kept.get("Fast")).isNull();
    }

    @Test
    void theSameIdTwiceIsRefused() {
        GoldTuples kept = new GoldTuples();
        assertThat(kept.add(new DigestTuple("a", 0, E, E, SanitizerClass.CLEAN, null))).isTrue();
        assertThat(kept.add(new DigestTuple("a", 1, F, F, SanitizerClass.ASAN, null))).isFalse();
        assertThat(kept.get("a").exit()).isZero();
    }

    @Test
    void manyTuplesGrowAndSealAndAreReadFromSeveralThreadsAtOnce() throws Exception {
        int count = 2 * GoldTuples.KEPT;
        GoldTuples kept = new GoldTuples(count + 1);
        for (int i = 0; i < count; i++) {
            assertThat(kept.add(tuple(i))).isTrue();
        }
        kept.seal();
        assertThat(kept.size()).isEqualTo(count);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> found = new ArrayList<>();
            for (int worker = 0; worker < 4; worker++) {
                int first = worker;
                found.add(pool.submit(() -> {
                    int matched = 0;
                    for (int i = first; i < count; i += 4) {
                        matched += tuple(i).equals(kept.get("case-" + i)) ? 1 : 0;
                    }
                    return matched;
                }));
            }
            int matched = 0;
            for (Future<Integer> part : found) {
                matched += part.get();
            }
            assertThat(matched).isEqualTo(count);
        } finally {
            pool.shutdownNow();
        }
        assertThat(kept.add(tuple(count))).as("adding after seal grows again").isTrue();
        assertThat(kept.get("case-" + count)).isEqualTo(tuple(count));
    }

    @Test
    void aGradeFindsTheTupleAsReadEvenWhenItsFileIsRewrittenAfterwards() throws Exception {
        Files.createDirectories(dir.resolve("gold"));
        Files.writeString(dir.resolve("gold/a.json"), "{\"case\":\"a\",\"exit\":3,\"stdout_sha256\":\"" + F.toUpperCase() + "\",\"stderr_sha256\":\""
                + E + "\",\"sanitizer\":\"clean\"}");
        GoldStore.Gold gold = GoldStore.read(dir.resolve("gold"), TimeBuckets.parse("off"));
        Files.writeString(dir.resolve("gold/a.json"), "{\"case\":\"a\",\"exit\":0,\"stdout_sha256\":\"" + E + "\",\"stderr_sha256\":\""
                + E + "\",\"sanitizer\":\"clean\"}");
        // What the grade compares with is what was read and checked; the oracle guard fails a grade whose gold changed.
        assertThat(gold.tuple("a")).isEqualTo(new DigestTuple("a", 3, F, E, SanitizerClass.CLEAN, null));
    }

    @Test
    void noMoreThanTheLimitIsTaken() {
        GoldTuples kept = new GoldTuples(3);
        for (int i = 0; i < 3; i++) {
            assertThat(kept.add(tuple(i))).isTrue();
        }
        assertThat(kept.add(tuple(3))).isFalse();
        assertThat(kept.get("case-3")).isNull();
        assertThat(kept.size()).isEqualTo(3);
    }

    @Test
    void aGoldDirectoryOfMoreCasesThanAreKeptIsGradedFromItsFiles() throws Exception {
        Files.createDirectories(dir.resolve("gold"));
        for (String id : List.of("a", "b", "c")) {
            Files.writeString(dir.resolve("gold/" + id + ".json"), "{\"case\":\"" + id + "\",\"exit\":3,\"stdout_sha256\":\"" + F
                    + "\",\"stderr_sha256\":\"" + E + "\",\"sanitizer\":\"clean\"}");
        }
        GoldStore.Gold large = GoldStore.read(dir.resolve("gold"), TimeBuckets.parse("off"), "record", "rerecord", 2);
        GoldStore.Gold small = GoldStore.read(dir.resolve("gold"), TimeBuckets.parse("off"), "record", "rerecord", 3);
        Files.writeString(dir.resolve("gold/b.json"), "{\"case\":\"b\",\"exit\":0,\"stdout_sha256\":\"" + E + "\",\"stderr_sha256\":\""
                + E + "\",\"sanitizer\":\"asan\"}");
        // Over the limit, each case's file is read when it is graded (so the rewrite shows); within it, the tuple as read.
        assertThat(large.tuple("b")).isEqualTo(new DigestTuple("b", 0, E, E, SanitizerClass.ASAN, null));
        assertThat(small.tuple("b")).isEqualTo(new DigestTuple("b", 3, F, E, SanitizerClass.CLEAN, null));
        assertThat(large.tuple("a")).isEqualTo(small.tuple("a")).isEqualTo(new DigestTuple("a", 3, F, E, SanitizerClass.CLEAN, null));
        Files.delete(dir.resolve("gold/c.json"));
        assertThatThrownBy(() -> large.tuple("c")).isInstanceOf(dev.patchgrade.core.PatchgradeException.class).hasMessageContaining("c.json");
        assertThat(small.tuple("c")).isEqualTo(new DigestTuple("c", 3, F, E, SanitizerClass.CLEAN, null));
    }

    @Test
    void anIdWithALoneSurrogateIsNotTheIdUtf8WouldWriteForIt() throws Exception {
        // UTF-8 writes a lone surrogate as '?': hashed so, "x" and a lone U+D800 found the tuple of "x?" and was graded against it.
        GoldTuples kept = new GoldTuples();
        assertThat(kept.add(new DigestTuple("x?", 1, E, E, SanitizerClass.CLEAN, null))).isTrue();
        assertThat(kept.get("x\uD800")).isNull();
        assertThat(kept.add(new DigestTuple("x\uD800", 2, E, E, SanitizerClass.CLEAN, null))).isTrue();
        assertThat(kept.add(new DigestTuple("x\uDC00", 3, E, E, SanitizerClass.CLEAN, null))).isTrue();
        assertThat(kept.get("x\uD800").exit()).isEqualTo(2);
        assertThat(kept.get("x?").exit()).isEqualTo(1);

        GoldWriter.replace(dir.resolve("gold"), List.of(new DigestTuple("x?", 0, E, E, SanitizerClass.CLEAN, null)), null, List.of());
        Path cases = Files.writeString(dir.resolve("cases.jsonl"), "{\"id\":\"x\\ud800\",\"args\":[]}\n");
        dev.patchgrade.core.grade.GoalSettings settings = new dev.patchgrade.core.grade.GoalSettings("digest", "surrogate", dir.resolve("reports"),
                dir.resolve("out"), dir, java.util.Map.of());
        dev.patchgrade.core.grade.GoalResult result = DigestGoal.grade(DigestOptions.of(settings, cases, dir.resolve("gold"), List.of("/bin/true"))
                .buckets(TimeBuckets.parse("off")).build(), dev.patchgrade.core.GradeLog.SILENT);
        assertThat(result.error()).as("graded against another case's gold").isNotNull();
        assertThat(result.error().error()).as(result.error().getMessage()).isEqualTo(dev.patchgrade.core.ErrorName.CASE_SET_DRIFT);
    }

    private static DigestTuple tuple(int i) {
        String hash = String.format("%064x", (long) i * 2654435761L);
        return new DigestTuple("case-" + i, i % 7 == 0 ? null : i - 500, hash, i % 3 == 0 ? null : E, SanitizerClass.values()[i % SanitizerClass.values().length],
                i % 2 == 0 ? Buckets.label("lt_50ms") : Buckets.label("gt_5s"), i % 5 == 0 ? null : (long) i);
    }
}
