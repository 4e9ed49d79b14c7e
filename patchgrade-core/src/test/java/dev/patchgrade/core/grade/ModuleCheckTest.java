package dev.patchgrade.core.grade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.patchgrade.core.PatchgradeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModuleCheckTest {
    @TempDir
    Path dir;

    @Test
    void namesEveryFailingAndErroringExecutionWithItsWorstType() throws Exception {
        Files.writeString(dir.resolve("patchgrade.envelope.driver.json"), "{\"verdict\":\"reject\",\"reasons\":[\"rss\",\"user_cpu\"]}");
        Files.writeString(dir.resolve("patchgrade.digest.plain.json"), "{\"verdict\":\"fail\",\"worst\":\"sanitizer\",\"cases\":["
                + "{\"verdict\":\"fail\"},{\"verdict\":\"pass\"},{\"verdict\":\"fail\"}]}");
        Files.writeString(dir.resolve("patchgrade.three-column.tenths.json"), "{\"verdict\":\"pass\",\"worst\":\"pass_all_agree\",\"rows\":["
                + "{\"pattern\":\"pass_all_agree\"}]}");
        Files.writeString(dir.resolve("patchgrade.digest.ubsan.json"), "{\"verdict\":\"error\",\"error\":{\"type\":\"toolchain_drift\","
                + "\"message\":\"gold recorded with g++ 12\"}}");
        Files.writeString(dir.resolve("patchgrade.three-column.tenths.feedback.jsonl"), "not a report\n");

        ModuleCheck.Result result = ModuleCheck.read(dir, null);

        assertThat(result.executions()).extracting(ModuleCheck.Execution::name)
                .containsExactly("digest.plain", "digest.ubsan", "envelope.driver", "three-column.tenths");
        assertThat(result.with(ModuleCheck.Status.FAILED)).containsExactly(
                new ModuleCheck.Execution("digest.plain", ModuleCheck.Status.FAILED, "sanitizer", "2 of 3 case(s) failing"),
                new ModuleCheck.Execution("envelope.driver", ModuleCheck.Status.FAILED, "rss", "rejected for rss, user_cpu"));
        assertThat(result.with(ModuleCheck.Status.ERROR)).containsExactly(
                new ModuleCheck.Execution("digest.ubsan", ModuleCheck.Status.ERROR, "toolchain_drift", "gold recorded with g++ 12"));
        assertThat(result.with(ModuleCheck.Status.PASSED)).extracting(ModuleCheck.Execution::detail).containsExactly("0 of 1 row(s) failing");
    }

    @Test
    void theSummaryCountsAndListsEveryExecutionThatDidNotPass() {
        ModuleCheck.Result result = new ModuleCheck.Result(List.of(
                new ModuleCheck.Execution("digest.plain", ModuleCheck.Status.FAILED, "sanitizer", "2 of 3 case(s) failing"),
                new ModuleCheck.Execution("envelope.driver", ModuleCheck.Status.PASSED, "accept", "accepted"),
                new ModuleCheck.Execution("digest.ubsan", ModuleCheck.Status.ERROR, "toolchain_drift", "gold recorded with g++ 12")), List.of());
        String summary = result.failureSummary("billing", dir);
        assertThat(summary.lines().toList()).containsExactly(
                "patchgrade check: 1 of 3 grading execution(s) of billing failed, 1 stopped with an error; see " + dir.resolve("index.html"),
                "  digest.plain: sanitizer (2 of 3 case(s) failing)",
                "  digest.ubsan: error toolchain_drift (gold recorded with g++ 12)");
        ModuleCheck.Result passed = new ModuleCheck.Result(List.of(result.executions().get(1)), List.of());
        assertThat(passed.failureSummary("billing", dir)).isNull();
    }

    @Test
    void reportsOlderThanTheBuildAreLeftOverAndNotJudged() throws Exception {
        Path old = Files.writeString(dir.resolve("patchgrade.envelope.removed.json"), "{\"verdict\":\"reject\",\"reasons\":[\"rss\"]}");
        Files.setLastModifiedTime(old, FileTime.from(Instant.parse("2020-01-01T00:00:00Z")));
        Files.writeString(dir.resolve("patchgrade.envelope.driver.json"), "{\"verdict\":\"accept\",\"reasons\":[]}");
        ModuleCheck.Result result = ModuleCheck.read(dir, Instant.parse("2021-01-01T00:00:00Z"));
        assertThat(result.stale()).containsExactly(old);
        assertThat(result.executions()).extracting(ModuleCheck.Execution::status).containsExactly(ModuleCheck.Status.PASSED);
    }

    @Test
    void aBrokenReportIsAnErrorNamingIt() throws Exception {
        Files.writeString(dir.resolve("patchgrade.digest.x.json"), "{ half");
        assertThatThrownBy(() -> ModuleCheck.read(dir, null)).isInstanceOf(PatchgradeException.class)
                .hasMessageContaining("patchgrade.digest.x.json").hasMessageContaining("delete it, or run a clean build");
        assertThat(ModuleCheck.read(dir.resolve("absent"), null).executions()).isEmpty();
    }
}
