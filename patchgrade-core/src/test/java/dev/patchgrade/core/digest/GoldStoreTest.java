package dev.patchgrade.core.digest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GoldStoreTest {
    private static final String E = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    private static final TimeBuckets BUCKETS = TimeBuckets.parse(null);

    @TempDir
    Path dir;

    private void write(String name, String json) throws Exception {
        Files.createDirectories(dir.resolve("gold"));
        Files.writeString(dir.resolve("gold").resolve(name), json);
    }

    private static String tuple(String id, String sanitizer, String bucket) {
        return "{\"case\":\"" + id + "\",\"exit\":0,\"stdout_sha256\":\"" + E + "\",\"stderr_sha256\":\"" + E.toUpperCase()
                + "\",\"sanitizer\":\"" + sanitizer + "\",\"time_bucket\":\"" + bucket + "\"}";
    }

    @Test
    void matchesCasesByTheCaseKeyNotTheFileName() throws Exception {
        write("rounding_up.json", tuple("1.005", "clean", "lt_50ms"));
        write("notes.txt", "ignored: not a digest");
        GoldStore.Gold gold = GoldStore.read(dir.resolve("gold"), BUCKETS);
        assertThat(gold.caseIds()).containsExactly("1.005");
        assertThat(gold.tuple("1.005").stderrSha256()).isEqualTo(E);
        assertThat(gold.toolchain()).isNull();
    }

    @Test
    void aHashIsExactlySixtyFourHexDigits() throws Exception {
        // Near misses: one digit short, one non-hex letter, a digit that is not ASCII (U+FF10).
        for (String bad : List.of(E.substring(1), "g" + E.substring(1), "\uff10" + E.substring(1))) {
            write("b.json", "{\"case\":\"b\",\"exit\":0,\"stdout_sha256\":\"" + bad + "\",\"stderr_sha256\":null,\"sanitizer\":\"clean\","
                    + "\"time_bucket\":\"lt_50ms\"}");
            assertThatThrownBy(() -> GoldStore.read(dir.resolve("gold"), BUCKETS)).as(bad).hasMessageContaining("must be a SHA-256");
        }
    }

    @Test
    void unknownSanitizerOrBucketNamesAreErrorsNamingTheFile() throws Exception {
        write("a.json", tuple("a", "msan", "lt_50ms"));
        assertThatThrownBy(() -> GoldStore.read(dir.resolve("gold"), BUCKETS))
                .hasMessageContaining("a.json: key \"sanitizer\" is \"msan\"").hasMessageContaining("clean, asan, ubsan");
        write("a.json", tuple("a", "clean", "lt_1s"));
        assertThatThrownBy(() -> GoldStore.read(dir.resolve("gold"), BUCKETS))
                .hasMessageContaining("a.json: key \"time_bucket\" is \"lt_1s\"").hasMessageContaining("of the timeBuckets setting; set it to the cutoffs");
    }

    @Test
    void malformedFilesAndDuplicateCasesAreErrors() throws Exception {
        write("a.json", "{\"case\": \"a\",\n \"exit\": }");
        assertThatThrownBy(() -> GoldStore.read(dir.resolve("gold"), BUCKETS)).hasMessageContaining("a.json:2: not valid JSON");
        write("a.json", tuple("a", "clean", "lt_50ms"));
        write("b.json", tuple("a", "clean", "lt_50ms"));
        assertThatThrownBy(() -> GoldStore.read(dir.resolve("gold"), BUCKETS)).hasMessageContaining("case \"a\" is also in");
        write("b.json", "{\"case\":\"b\",\"exit\":0,\"stdout_sha256\":\"zz\",\"stderr_sha256\":null,\"sanitizer\":\"clean\",\"time_bucket\":\"lt_50ms\"}");
        assertThatThrownBy(() -> GoldStore.read(dir.resolve("gold"), BUCKETS)).hasMessageContaining("b.json: key \"stdout_sha256\" must be a SHA-256");
    }

    @Test
    void aMissingDirectorySaysHowToRecordOne() {
        assertThatThrownBy(() -> GoldStore.read(dir.resolve("none"), BUCKETS)).hasMessageContaining("record-digest");
    }

    @Test
    void replaceWritesExactlyTheNewDigestsAndKeepsToolchainAndRules() throws Exception {
        write("stale.json", tuple("gone", "clean", "lt_50ms"));
        List<DigestTuple> tuples = List.of(new DigestTuple("../x", 0, E, E, dev.patchgrade.core.digest.SanitizerClass.CLEAN, Buckets.label("lt_50ms")),
                new DigestTuple("timed-out", null, null, null, dev.patchgrade.core.digest.SanitizerClass.TIMEOUT, Buckets.label("gt_5s")));
        List<NormalizeRule> rules = List.of(new NormalizeRule("0x[0-9a-f]+", "0xADDR"));
        GoldWriter.replace(dir.resolve("gold"), tuples, "g++ 12", rules);
        assertThat(dir.resolve("gold").toFile().list()).hasSize(2).doesNotContain("stale.json");
        GoldStore.Gold back = GoldStore.read(dir.resolve("gold"), BUCKETS);
        assertThat(back.caseIds().stream().map(back::tuple).toList()).containsExactlyInAnyOrderElementsOf(tuples);
        assertThat(back.toolchain()).isEqualTo("g++ 12");
        assertThat(back.normalize()).isEqualTo(rules);
        assertThat(dir.toFile().list()).containsExactly("gold");
    }
}
