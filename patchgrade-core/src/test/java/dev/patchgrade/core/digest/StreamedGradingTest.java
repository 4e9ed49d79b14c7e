package dev.patchgrade.core.digest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.report.JsonReports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 15: the digest goal takes its cases from the file as it grades them, and checks the case set by key. */
class StreamedGradingTest {
    private static final List<String> ECHO = List.of("/bin/sh", "-c", "echo \"$0\"");

    @TempDir
    Path dir;

    private DigestGoal.Options options(String execution, Path cases, Shard shard) {
        GoalSettings settings = new GoalSettings("digest", execution, dir.resolve("reports"), dir.resolve("out"), dir, Map.of());
        return DigestOptions.of(settings, cases, dir.resolve("gold"), ECHO).parallel(2).shard(shard).build();
    }

    private static List<String> rows(DigestGoal.Options options) throws Exception {
        JsonNode report = JsonReports.MAPPER.readTree(options.settings().jsonReport().toFile());
        List<String> ids = new ArrayList<>();
        report.path("cases").forEach(row -> ids.add(row.path("case").asText()));
        return ids;
    }

    @Test
    void everyCaseIsGradedOnceInFileOrderAcrossTheShards() throws Exception {
        Path cases = Files.writeString(dir.resolve("cases.txt"), "e\n\nd\r\nc\nb\na\nf\ng\n");
        DigestGoal.record(options("rec", cases, Shard.ALL), GradeLog.SILENT);
        DigestGoal.Options whole = options("all", cases, Shard.ALL);
        GoalResult all = DigestGoal.grade(whole, GradeLog.SILENT);
        assertThat(all.error()).isNull();
        assertThat(all.failed()).isFalse();
        assertThat(rows(whole)).containsExactly("e", "d", "c", "b", "a", "f", "g");
        List<String> sharded = new ArrayList<>();
        for (int k = 1; k <= 3; k++) {
            DigestGoal.Options shard = options("shard" + k, cases, new Shard(k, 3));
            GoalResult result = DigestGoal.grade(shard, GradeLog.SILENT);
            assertThat(result.error()).isNull();
            assertThat(result.failed()).isFalse();
            assertThat(rows(whole)).containsSubsequence(rows(shard));
            sharded.addAll(rows(shard));
        }
        assertThat(sharded).containsExactlyInAnyOrderElementsOf(rows(whole));
    }

    @Test
    void aCaseSetDriftStillListsTheAddedAndRemovedIds() throws Exception {
        Path cases = Files.writeString(dir.resolve("cases.txt"), "a\nb\nc\n");
        DigestGoal.record(options("rec", cases, Shard.ALL), GradeLog.SILENT);
        Files.writeString(cases, "z\nb\ny\na\n");
        GoalResult result = DigestGoal.grade(options("grade", cases, Shard.ALL), GradeLog.SILENT);
        assertThat(result.error().errorName()).isEqualTo("case_set_drift");
        assertThat(result.error().getMessage()).contains("differ: added [z, y], removed [c]. Nothing was graded.");
    }
}
