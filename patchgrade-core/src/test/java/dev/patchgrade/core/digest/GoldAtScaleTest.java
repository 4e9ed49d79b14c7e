package dev.patchgrade.core.digest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.report.JsonReports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SPEC, digest at scale: a gold case read back from its own file when graded, excerpts only for a drifting case, gold written case by case. */
class GoldAtScaleTest {
    private static final List<String> ECHO = List.of("/bin/sh", "-c", "echo \"$0\"; echo \"err $0\" >&2");
    private static final List<String> B_CHANGED = List.of("/bin/sh", "-c",
            "if [ \"$0\" = b ]; then printf 'b\\nchanged\\n'; else echo \"$0\"; fi; echo \"err $0\" >&2");
    private static final String E = DigestTuple.EMPTY_SHA256;
    private static final String F = "0123456789abcdef0000ffff8000000180000000ffffffff7fffffffc0ffee00";

    @TempDir
    Path dir;

    private DigestGoal.Options options(String execution, List<String> command, Path cases) {
        GoalSettings settings = new GoalSettings("digest", execution, dir.resolve("reports"), dir.resolve("out"), dir, Map.of());
        return DigestOptions.of(settings, cases, dir.resolve("gold"), command).parallel(2).force(true).build();
    }

    private Path plainCases() throws Exception {
        return Files.writeString(dir.resolve("cases.txt"), "a\nb\nc\n");
    }

    private static Map<String, byte[]> contents(Path directory) throws Exception {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> list = Files.list(directory)) {
            for (Path file : list.toList()) {
                files.put(file.getFileName().toString(), Files.readAllBytes(file));
            }
        }
        return files;
    }

    private List<String> siblings() throws Exception {
        try (Stream<Path> list = Files.list(dir)) {
            return list.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(".gold")).toList();
        }
    }

    @Test
    void aDriftingCaseShowsItsFirstDifferingLineFromAGoldFileNamedOtherThanItsId() throws Exception {
        DigestGoal.record(options("rec", ECHO, plainCases()), GradeLog.SILENT);
        // Cases are matched by the case key: the excerpt must come from the file that holds "b", whatever its name.
        Files.move(dir.resolve("gold/b.json"), dir.resolve("gold/zz-renamed.json"));
        DigestGoal.Options grading = options("grade", B_CHANGED, plainCases());
        assertThat(DigestGoal.grade(grading, GradeLog.SILENT).failureCount()).isEqualTo(1);
        JsonNode row = JsonReports.MAPPER.readTree(grading.settings().jsonReport().toFile()).path("cases").path(1);
        assertThat(row.path("case").asText()).isEqualTo("b");
        JsonNode first = row.path("first_difference").path(0);
        assertThat(first.path("stream").asText()).isEqualTo("stdout");
        assertThat(first.path("line").asInt()).isEqualTo(2);
        assertThat(first.path("candidate").asText()).isEqualTo("changed");
    }

    @Test
    void excerptsAreReadFromTheFileThatHoldsTheCaseOnlyWhenAskedFor() throws Exception {
        Files.createDirectories(dir.resolve("gold"));
        Files.writeString(dir.resolve("gold/rounding_up.json"), "{\"case\":\"1.005\",\"exit\":0,\"stdout_sha256\":\"" + E + "\",\"stderr_sha256\":\""
                + E + "\",\"sanitizer\":\"clean\",\"stdout_excerpt\":\"one\\ntwo\\n\"}");
        Files.writeString(dir.resolve("gold/plain.json"), "{\"case\":\"plain\",\"exit\":0,\"stdout_sha256\":\"" + E + "\",\"stderr_sha256\":\""
                + E + "\",\"sanitizer\":\"clean\"}");
        GoldStore.Gold gold = GoldStore.read(dir.resolve("gold"), TimeBuckets.parse("off"));
        assertThat(gold.excerpts("1.005")).isEqualTo(new StreamExcerpts("one\ntwo\n", null));
        assertThat(gold.excerpts("plain")).isNull();
        assertThat(gold.excerpts("absent")).isNull();
        // A file that no longer holds its case was rewritten behind the grade's back: never an excerpt of another case.
        Files.writeString(dir.resolve("gold/rounding_up.json"), "{\"case\":\"other\",\"stdout_excerpt\":\"x\"}");
        assertThatThrownBy(() -> gold.excerpts("1.005")).hasMessageContaining("rounding_up.json: no longer holds case \"1.005\"");
    }

    @Test
    void goldFilesAreByteIdenticalAfterReadAndRewrite() throws Exception {
        TimeBuckets buckets = TimeBuckets.parse("50,500,5000");
        List<DigestTuple> tuples = List.of(new DigestTuple("fast", 0, F, E, SanitizerClass.CLEAN, Buckets.label("lt_50ms"), 7L),
                new DigestTuple("../odd id", -11, E, F, SanitizerClass.ASAN, Buckets.label("lt_5s"), 0L),
                new DigestTuple("slow", Integer.MIN_VALUE, F, F, SanitizerClass.UBSAN, Buckets.label("gt_5s"), Long.MAX_VALUE),
                new DigestTuple("hung", null, null, null, SanitizerClass.TIMEOUT, Buckets.label("gt_5s"), null));
        Map<String, StreamExcerpts> excerpts = Map.of("fast", new StreamExcerpts("1\n2\n", ""), "slow", new StreamExcerpts(null, "oops\n"));
        List<NormalizeRule> rules = List.of(new NormalizeRule("0x[0-9a-f]+", "0xADDR"));
        GoldWriter.replace(dir.resolve("gold"), tuples, "g++ 12", rules, excerpts);

        GoldStore.Gold gold = GoldStore.read(dir.resolve("gold"), buckets);
        Map<String, StreamExcerpts> readExcerpts = new LinkedHashMap<>();
        gold.caseIds().forEach(id -> {
            if (gold.excerpts(id) != null) {
                readExcerpts.put(id, gold.excerpts(id));
            }
        });
        assertThat(readExcerpts).isEqualTo(excerpts);
        GoldWriter.replace(dir.resolve("again"), gold.caseIds().stream().map(gold::tuple).toList(), gold.toolchain(), gold.normalize(), readExcerpts);
        Map<String, byte[]> before = contents(dir.resolve("gold"));
        Map<String, byte[]> after = contents(dir.resolve("again"));
        assertThat(after.keySet()).isEqualTo(before.keySet()).hasSize(4);
        before.forEach((name, bytes) -> assertThat(new String(after.get(name))).as(name).isEqualTo(new String(bytes)));
    }

    @Test
    void recordedGoldRoundTripsByteForByte() throws Exception {
        DigestGoal.record(options("rec", ECHO, plainCases()), GradeLog.SILENT);
        GoldStore.Gold gold = GoldStore.read(dir.resolve("gold"), TimeBuckets.parse("off"));
        Map<String, StreamExcerpts> excerpts = new LinkedHashMap<>();
        gold.caseIds().forEach(id -> excerpts.put(id, gold.excerpts(id)));
        GoldWriter.replace(dir.resolve("again"), gold.caseIds().stream().map(gold::tuple).toList(), gold.toolchain(), gold.normalize(), excerpts);
        Map<String, byte[]> before = contents(dir.resolve("gold"));
        Map<String, byte[]> after = contents(dir.resolve("again"));
        assertThat(before).containsOnlyKeys("a.json", "b.json", "c.json");
        assertThat(after).containsOnlyKeys(before.keySet());
        before.forEach((name, bytes) -> assertThat(after.get(name)).as(name).isEqualTo(bytes));
    }

    @Test
    void recordWritesACompleteDirectoryAndLeavesNoSibling() throws Exception {
        DigestGoal.Recorded recorded = DigestGoal.record(options("rec", ECHO, plainCases()), GradeLog.SILENT);
        assertThat(recorded.count()).isEqualTo(3);
        assertThat(recorded.first()).extracting(DigestTuple::caseId).containsExactly("a", "b", "c");
        assertThat(contents(dir.resolve("gold"))).containsOnlyKeys("a.json", "b.json", "c.json");
        assertThat(JsonReports.MAPPER.readTree(dir.resolve("gold/c.json").toFile()).path("stderr_excerpt").asText()).isEqualTo("err c\n");
        assertThat(siblings()).isEmpty();
    }

    @Test
    void aCaseThatCannotStartMidwayLeavesTheOldGoldAsItWas() throws Exception {
        DigestGoal.record(options("rec", ECHO, plainCases()), GradeLog.SILENT);
        Map<String, byte[]> old = contents(dir.resolve("gold"));
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            // The twelfth case names a directory that is not there: it cannot start, after others were written.
            lines.append("{\"id\":\"n").append(i).append("\",\"args\":[\"").append(i).append("\"]").append(i == 11 ? ",\"cwd\":\"missing\"" : "")
                    .append("}\n");
        }
        Path cases = Files.writeString(dir.resolve("cases.jsonl"), lines);
        assertThatThrownBy(() -> DigestGoal.record(options("rec", ECHO, cases), GradeLog.SILENT)).hasMessageContaining("\"cwd\"");
        Map<String, byte[]> now = contents(dir.resolve("gold"));
        assertThat(now.keySet()).isEqualTo(old.keySet());
        old.forEach((name, bytes) -> assertThat(now.get(name)).as(name).isEqualTo(bytes));
        assertThat(siblings()).as("no half-written directory is left beside it").isEmpty();
    }
}
