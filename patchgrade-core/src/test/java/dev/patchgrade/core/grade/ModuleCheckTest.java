package dev.patchgrade.core.grade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.report.CaseOutcome;
import dev.patchgrade.core.report.DigestSection;
import dev.patchgrade.core.report.EnvelopeSection;
import dev.patchgrade.core.report.ExecutionReport;
import dev.patchgrade.core.report.ExecutionSummary;
import dev.patchgrade.core.report.ExecutionSummary.Status;
import dev.patchgrade.core.report.SectionView;
import dev.patchgrade.core.report.ThreeColumnSection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code check} judges the summary records the grading executions left, written here through the goals' own reporters
 * ({@link GoalRun#grade}, {@link GoalReports}), never hand-made JSON.
 */
class ModuleCheckTest {
    @TempDir
    Path dir;

    private Path reports() {
        return dir.resolve("reports");
    }

    /** One graded item: its id and whether its goal judged it failing; its JSON row says nothing of that. */
    private record Item(String id, boolean failing) {}

    /**
     * Grades {@code items} as a goal does: each through the JUnit XML and the JSON report (with the summary's record),
     * then the head. {@code rowsName} {@code null} is a report that lists no rows, as an envelope's.
     */
    private void grade(String goal, String executionId, SectionView view, String rowsName, Map<String, Object> head, Item... items) {
        GoalSettings settings = new GoalSettings(goal, executionId, reports(), dir.resolve("out"), dir, Map.of());
        GoalResult result = GoalRun.grade(settings, "grade", e -> GoalRun.head("goal", goal, "verdict", "error"), () -> view, GradeLog.SILENT,
                reports -> {
            try (ExecutionReport report = reports.open(settings.suiteName(Shard.ALL), rowsName)) {
                JsonView<Item, Map<String, Object>> json = new JsonView<>() {
                    @Override
                    public Object row(Item item) {
                        return rowsName == null ? null : Map.of("case", item.id());
                    }

                    @Override
                    public Object head(Map<String, Object> whole) {
                        return whole;
                    }
                };
                Reporters<Item, Map<String, Object>> reporters = reports.reporters(report, () -> 0, Item::failing,
                        item -> item.failing() ? CaseOutcome.failed(item.id(), 0, "x", "x", "x", null, null) : CaseOutcome.passed(item.id(), 0, null, null),
                        json, List.of());
                for (Item item : items) {
                    reporters.row(item);
                }
                reporters.finish(head);
            }
            return new GoalResult(List.of(), null, "pass");
        });
        assertThat(result.error()).isNull();
    }

    private void gradeDigest(String executionId, String verdict, String worst, Item... items) {
        grade("digest", executionId, new DigestSection(), "cases", GoalRun.head("goal", "digest", "verdict", verdict, "worst", worst, "fields", List.of()),
                items);
    }

    private void gradeEnvelope(String executionId, List<String> reasons) {
        boolean accepted = reasons.isEmpty();
        grade("envelope", executionId, new EnvelopeSection(), null, GoalRun.head("goal", "envelope", "verdict", accepted ? "accept" : "reject", "worst",
                accepted ? "accept" : reasons.get(0), "reasons", reasons, "command", List.of("./driver")), new Item("./driver", !accepted));
    }

    private void gradeWithSetupError(String executionId) {
        GoalSettings settings = new GoalSettings("digest", executionId, reports(), dir.resolve("out"), dir, Map.of());
        GoalRun.grade(settings, "grade", e -> GoalRun.head("goal", "digest", "verdict", "error"), DigestSection::new, GradeLog.SILENT, reports -> {
            throw new PatchgradeException(ErrorName.MALFORMED_CASES, "cases.jsonl: line 3 is not JSON");
        });
    }

    @Test
    void everyExecutionPassingPassesWithWhatEachGraded() {
        gradeDigest("plain", "pass", "pass", new Item("a", false), new Item("b", false), new Item("c", false));
        gradeEnvelope("driver", List.of());

        ModuleCheck.Result result = ModuleCheck.read(reports(), null);

        assertThat(result.executions()).containsExactly(new ModuleCheck.Execution("digest.plain", Status.PASSED, "pass", "0 of 3 case(s) failing"),
                new ModuleCheck.Execution("envelope.driver", Status.PASSED, "accept", "within every ceiling"));
        assertThat(result.failureSummary("billing", reports())).isNull();
        assertThat(result.stale()).isEmpty();
    }

    @Test
    void aFailingExecutionIsNamedWithItsWorstTypeAndHowManyOfItsItemsFailed() {
        gradeDigest("plain", "fail", "sanitizer", new Item("a", true), new Item("b", false), new Item("c", true));
        grade("three-column", "tenths", new ThreeColumnSection(), "rows", GoalRun.head("goal", "three-column", "verdict", "pass", "worst", "pass_all_agree"),
                new Item("r1", false));
        gradeEnvelope("driver", List.of("rss", "user_cpu"));

        ModuleCheck.Result result = ModuleCheck.read(reports(), null);

        assertThat(result.with(Status.FAILED)).extracting(ModuleCheck.Execution::name).containsExactly("digest.plain", "envelope.driver");
        assertThat(result.with(Status.PASSED)).extracting(ModuleCheck.Execution::detail).containsExactly("0 of 1 row(s) failing");
        assertThat(result.failureSummary("billing", reports()).lines().toList()).containsExactly(
                "patchgrade check: 2 of 3 grading execution(s) of billing failed; see " + reports().resolve("index.html"),
                "  digest.plain: sanitizer (2 of 3 case(s) failing)",
                "  envelope.driver: rss (rejected for rss, user_cpu)");
    }

    @Test
    void anExecutionStoppedByAnErrorLeavesARecordThatFailsTheCheck() {
        gradeWithSetupError("ubsan");
        gradeDigest("plain", "pass", "pass", new Item("a", false));

        ModuleCheck.Result result = ModuleCheck.read(reports(), null);

        assertThat(result.with(Status.ERROR)).containsExactly(
                new ModuleCheck.Execution("digest.ubsan", Status.ERROR, "malformed_cases", "cases.jsonl: line 3 is not JSON"));
        assertThat(result.failureSummary("billing", reports()).lines().toList()).containsExactly(
                "patchgrade check: 0 of 2 grading execution(s) of billing failed, 1 stopped with an error; see " + reports().resolve("index.html"),
                "  digest.ubsan: error malformed_cases (cases.jsonl: line 3 is not JSON)");
    }

    @Test
    void aRecordOlderThanTheBuildIsPassedOverByItsReportsNameAndNotJudged() throws Exception {
        gradeEnvelope("removed", List.of("rss"));
        gradeEnvelope("driver", List.of());
        Files.setLastModifiedTime(ExecutionSummary.file(reports(), "envelope.removed"), FileTime.from(Instant.parse("2020-01-01T00:00:00Z")));

        ModuleCheck.Result result = ModuleCheck.read(reports(), Instant.parse("2021-01-01T00:00:00Z"));

        assertThat(result.stale()).containsExactly(reports().resolve("patchgrade.envelope.removed.json"));
        assertThat(result.executions()).extracting(ModuleCheck.Execution::name, ModuleCheck.Execution::status)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("envelope.driver", Status.PASSED));
        assertThat(ModuleCheck.read(reports(), null).with(Status.FAILED)).extracting(ModuleCheck.Execution::name).containsExactly("envelope.removed");
    }

    @Test
    void noRecordIsNoExecutionEvenBesideAFailingJsonReport() throws Exception {
        assertThat(ModuleCheck.read(reports(), null).executions()).isEmpty();
        Files.createDirectories(reports());
        // A JSON report with no record was not written by this patchgrade's reporters: check judges records only.
        Files.writeString(reports().resolve("patchgrade.digest.old.json"), "{\"verdict\":\"fail\",\"worst\":\"sanitizer\",\"cases\":[]}");
        ModuleCheck.Result result = ModuleCheck.read(reports(), null);
        assertThat(result.executions()).isEmpty();
        assertThat(result.failureSummary("billing", reports())).isNull();
    }

    @Test
    void aBrokenRecordIsAnErrorNamingItAndTheFix() throws Exception {
        gradeDigest("plain", "pass", "pass", new Item("a", false));
        Path record = ExecutionSummary.file(reports(), "digest.x");
        Files.writeString(record, "{ half");
        assertThatThrownBy(() -> ModuleCheck.read(reports(), null)).isInstanceOf(PatchgradeException.class)
                .hasMessageContaining(record.toString()).hasMessageContaining("delete it, or run a clean build");
    }
}
