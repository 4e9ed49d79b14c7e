package dev.patchgrade.core.digest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.Fixtures;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.RecordingLog;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A candidate whose ASan+UBSan build reports an error the gold does not have: the message shows the
 * sanitizer's own line and first frame (not the banner of {@code =} signs its report starts with), and
 * nothing advises re-recording a bug into the gold. Runs the value_index fixture's sanitizer build.
 */
class SanitizerFindingTest {
    @TempDir
    Path dir;

    private DigestGoal.Options options(String goal, Map<String, String> environment) {
        GoalSettings settings = new GoalSettings(goal, "asan", dir.resolve("reports"), dir.resolve("out"), dir, environment);
        return DigestOptions.of(settings, dir.resolve("cases.jsonl"), dir.resolve("gold"), List.of(Fixtures.command("value_index.asan")))
                .sanitizer(Sanitizer.ASAN_UBSAN).build();
    }

    @Test
    void aHeapOverflowIsShownByItsSummaryAndFirstFrameAndIsNotToBeRerecorded() throws Exception {
        Files.writeString(dir.resolve("cases.jsonl"), "{\"id\":\"third\",\"args\":[\"3\"]}\n{\"id\":\"first\",\"args\":[\"1\"]}\n");
        DigestGoal.record(options("record-digest", Map.of()), GradeLog.SILENT);

        RecordingLog log = new RecordingLog();
        GoalResult result = DigestGoal.grade(options("digest", Map.of("INDEX_SHIFT", "7")), log);

        assertThat(result.failures()).hasSize(2).allSatisfy(line -> assertThat(line)
                .contains("sanitizer: clean -> asan")
                .containsPattern("; sanitizer: SUMMARY: AddressSanitizer: heap-buffer-overflow \\S*value_index.cpp:10 in element.*"
                        + "; first frame: #0 in element.* \\S*value_index.cpp:10")
                .doesNotContain("====").doesNotContain("stderr line"));
        String xml = Files.readString(options("digest", Map.of()).settings().xmlReport());
        assertThat(xml).contains("the candidate's sanitizer build reported an error the gold does not have (a memory or undefined-behaviour bug): "
                + "fix the candidate; re-recording the gold would lock the bug in").doesNotContain("if the new behaviour is intended")
                .contains("\ncandidate: exit 1; its stderr is the sanitizer's report, summed up above\n")
                .doesNotContain("stderr line 1").doesNotContain("hint:");
        assertThat(log.lines).contains("2 case(s) failed on a sanitizer report the gold does not have: a bug in the candidate to fix, which "
                + "re-recording would lock in").noneMatch(line -> line.contains("force=true"));
    }

    @Test
    void anUndefinedBehaviourIsShownByItsRuntimeErrorLine() throws Exception {
        Files.writeString(dir.resolve("cases.jsonl"), "{\"id\":\"times\",\"args\":[\"mul\",\"1\"]}\n");
        DigestGoal.record(options("record-digest", Map.of()), GradeLog.SILENT);
        Files.writeString(dir.resolve("cases.jsonl"), "{\"id\":\"times\",\"args\":[\"mul\",\"3\"]}\n");
        GoalResult result = DigestGoal.grade(options("digest", Map.of()), GradeLog.SILENT);
        assertThat(result.failures()).singleElement().asString().contains("sanitizer: clean -> ubsan")
                .containsPattern("; sanitizer: \\S*value_index.cpp:16:\\d+: runtime error: signed integer overflow: 3 \\* 2147483647 cannot be "
                        + "represented in type 'int'");
    }
}
