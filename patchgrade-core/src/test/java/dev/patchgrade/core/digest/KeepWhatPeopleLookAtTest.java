package dev.patchgrade.core.digest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.cases.Case;
import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.report.JsonReports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SPEC, digest: candidate digests and full streams of the cases that drifted, of every case with keepAll; and the worst drift. */
class KeepWhatPeopleLookAtTest {
    private static final List<String> ECHO = List.of("/bin/sh", "-c", "echo \"$0\"");
    private static final List<String> B_CHANGED = List.of("/bin/sh", "-c", "if [ \"$0\" = b ]; then echo changed; else echo \"$0\"; fi");

    @TempDir
    Path dir;

    private DigestGoal.Options options(String execution, List<String> command) throws Exception {
        Path cases = Files.writeString(dir.resolve("cases.txt"), "a\nb\nc\n");
        GoalSettings settings = new GoalSettings("digest", execution, dir.resolve("reports"), dir.resolve("out"), dir, Map.of());
        return DigestOptions.of(settings, cases, dir.resolve("gold"), command).parallel(2).build();
    }

    private static List<String> names(Path directory) throws Exception {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void onlyTheDriftingCaseKeepsItsStreamsAndCandidateDigest() throws Exception {
        DigestGoal.record(options("rec", ECHO), GradeLog.SILENT);
        DigestGoal.Options grading = options("grade", B_CHANGED);
        GoalResult result = DigestGoal.grade(grading, GradeLog.SILENT);
        assertThat(result.failureCount()).isEqualTo(1);
        assertThat(names(DigestGoal.candidateDirectory(grading.settings()))).containsExactly("b.json");
        assertThat(names(grading.settings().streamsDirectory())).containsExactly("b.stderr", "b.stdout");
        var report = JsonReports.MAPPER.readTree(grading.settings().jsonReport().toFile());
        assertThat(report.path("cases").path(0).path("kept_files")).isEmpty();
        assertThat(report.path("cases").path(1).path("kept_files").path(0).asText()).endsWith("b.stdout");
    }

    @Test
    void recordingKeepsTheGoldAndNoStreams() throws Exception {
        DigestGoal.Options recording = options("rec", ECHO);
        DigestGoal.record(recording, GradeLog.SILENT);
        assertThat(names(dir.resolve("gold"))).hasSize(3);
        assertThat(names(recording.settings().streamsDirectory())).as("the streams were read for the gold's excerpts, then let go").isEmpty();
        assertThat(Files.readString(dir.resolve("gold").resolve("b.json"))).contains("\"stdout_excerpt\" : \"b\\n\"");
    }

    @Test
    void keepAllKeepsEveryCase() throws Exception {
        DigestGoal.record(options("rec", ECHO), GradeLog.SILENT);
        DigestGoal.Options grading = options("grade", B_CHANGED).keepingAll(true);
        DigestGoal.grade(grading, GradeLog.SILENT);
        assertThat(names(DigestGoal.candidateDirectory(grading.settings()))).containsExactly("a.json", "b.json", "c.json");
        assertThat(names(grading.settings().streamsDirectory())).hasSize(6);
    }

    @Test
    void aLaterPassingGradeLeavesNoCandidateDigestOfAnEarlierDrift() throws Exception {
        DigestGoal.record(options("rec", ECHO), GradeLog.SILENT);
        DigestGoal.grade(options("grade", B_CHANGED), GradeLog.SILENT);
        DigestGoal.Options again = options("grade", ECHO);
        assertThat(DigestGoal.grade(again, GradeLog.SILENT).failed()).isFalse();
        assertThat(names(DigestGoal.candidateDirectory(again.settings()))).isEmpty();
        assertThat(names(again.settings().streamsDirectory())).as("nor the streams kept for it").isEmpty();
    }

    @Test
    void aCaseThatDriftsOnlyInTimeKeepsTheStreamsOfTheRunItsRowShows() throws Exception {
        // Recorded fast, graded slow: the reruns stay slow, and each row keeps one run's streams, the others' go.
        DigestGoal.record(timed("rec", ECHO, 0), GradeLog.SILENT);
        // 600 ms of sleep counts in full however busy the machine; echo stays far below 200 ms of load-free time.
        DigestGoal.Options grading = timed("grade", List.of("/bin/sh", "-c", "sleep 0.6; echo \"$0\""), 2);
        GoalResult result = DigestGoal.grade(grading, GradeLog.SILENT);
        assertThat(result.failureCount()).isEqualTo(3);
        assertThat(names(grading.settings().streamsDirectory())).hasSize(6);
        assertThat(Files.readString(grading.settings().streamsDirectory().resolve("b.stdout"))).isEqualTo("b\n");
    }

    private DigestGoal.Options timed(String execution, List<String> command, int reruns) throws Exception {
        Path cases = Files.writeString(dir.resolve("cases.txt"), "a\nb\nc\n");
        GoalSettings settings = new GoalSettings("digest", execution, dir.resolve("reports"), dir.resolve("out"), dir, Map.of());
        return DigestOptions.of(settings, cases, dir.resolve("gold"), command).buckets(TimeBuckets.parse("200")).timeBasis(TimeBasis.WALL).timeBucketSlack(1.0).timeSamples(1).timeBucketReruns(reruns).parallel(1).force(true)
                .build();
    }

    @Test
    void theWorstIsTheMostSevereDriftWhateverOrderTheDriftsWereFoundIn() {
        DigestTuple gold = new DigestTuple("x", 0, "a", "a", dev.patchgrade.core.digest.SanitizerClass.CLEAN, Buckets.label("lt_50ms"));
        DigestTuple cand = new DigestTuple("x", 1, "a", "a", dev.patchgrade.core.digest.SanitizerClass.CLEAN, Buckets.label("lt_5s"));
        DigestRow row = new DigestRow(new Case("x", List.of("x"), null, null, 1), gold, cand, List.of(
                new DigestTuple.Drift(DriftField.TIME_BUCKET, "lt_50ms", "lt_5s"), new DigestTuple.Drift(DriftField.EXIT, 0, 1)), 0, null, List.of(), null);
        assertThat(row.worst()).isEqualTo(DriftField.EXIT);
        assertThat(DriftField.worse(DriftField.TIME_BUCKET, DriftField.OUTPUT_LIMIT)).isEqualTo(DriftField.OUTPUT_LIMIT);
        assertThat(DriftField.worse(null, DriftField.STDERR_SHA256)).isEqualTo(DriftField.STDERR_SHA256);
    }
}
