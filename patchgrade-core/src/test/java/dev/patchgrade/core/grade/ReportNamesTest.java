package dev.patchgrade.core.grade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.Fixtures;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.envelope.EnvelopeGoal;
import dev.patchgrade.core.envelope.HostCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Suite and class names keep a reactor's modules and a pipeline's shards apart; the console ends with Surefire's line. */
class ReportNamesTest {
    @TempDir
    Path dir;
    private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
    private final GradeLog log = new GradeLog() {
        @Override
        public void info(String message) {
            lines.add(message);
        }

        @Override
        public void warn(String message) {
            lines.add("[WARNING] " + message);
        }

        @Override
        public void debug(String message) {}
    };

    private GoalSettings settings(String goal, String execution, String reports) {
        return new GoalSettings(goal, execution, dir.resolve(reports), dir.resolve("out"), dir, Map.of()).withModule("billing");
    }

    @Test
    void anExecutionsRecordJsonReportAndFeedbackFileAreNamedAsOne() {
        ReportNames names = settings("three-column", "nightly.v2", "reports").names();
        assertThat(names.jsonReport()).isEqualTo(dir.resolve("reports/patchgrade.three-column.nightly.v2.json"));
        assertThat(names.feedbackFile()).isEqualTo(dir.resolve("reports/patchgrade.three-column.nightly.v2.feedback.jsonl"));
        String name = dev.patchgrade.core.report.ExecutionSummary.nameOf(names.jsonReport());
        assertThat(name).as("the name a record and the pages give the execution").isEqualTo("three-column.nightly.v2");
        assertThat(dev.patchgrade.core.report.ExecutionSummary.jsonReport(dir.resolve("reports"), name)).isEqualTo(names.jsonReport());
    }

    @Test
    void theArtifactIdLeadsSuiteAndClassButNotTheFileName() {
        GoalSettings settings = settings("digest", "grade", "reports");
        assertThat(settings.className()).isEqualTo("billing.patchgrade.digest.grade");
        assertThat(settings.suiteName(Shard.parse("2/3"))).isEqualTo("billing.patchgrade.digest.grade.shard-2-of-3");
        assertThat(settings.xmlReport().getFileName().toString()).isEqualTo("TEST-patchgrade.digest.grade.xml");
        assertThat(new GoalSettings("digest", "grade", dir, dir, dir, Map.of()).className()).isEqualTo("patchgrade.digest.grade");
    }

    @Test
    void anEnvelopeRunsOnExactlyOneShardAndSaysWhich() throws Exception {
        Path envelope = Files.writeString(dir.resolve("envelope.json"),
                "{\"cmd\":[\"x\"],\"timeout_s\":5,\"max_rss_kb\":10000000,\"max_user_us\":100000000,\"notes\":\"\"}");
        List<Path> written = new ArrayList<>();
        for (int k = 1; k <= 2; k++) {
            GoalSettings settings = settings("envelope", "driver", "reports-" + k);
            GoalResult result = EnvelopeGoal.grade(EnvelopeGoal.grading(settings)
                    .envelope(envelope)
                    .command(List.of(Fixtures.command("crash"), "exit:0"))
                    .hostCheck(HostCheck.IGNORE)
                    .shard(new Shard(k, 2))
                    .build(), log);
            assertThat(result.failed()).isFalse();
            if (Files.exists(settings.xmlReport())) {
                written.add(settings.xmlReport());
                assertThat(Files.readString(settings.xmlReport()))
                        .contains("<testsuite name=\"billing.patchgrade.envelope.driver.shard-" + k + "-of-2\"")
                        .contains("classname=\"billing.patchgrade.envelope.driver\"");
                String suite = "billing.patchgrade.envelope.driver.shard-" + k + "-of-2";
                assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: ")
                        .endsWith(" s - in " + suite));
                assertThat(lines).contains("worst: accept");
            }
        }
        assertThat(written).as("graded once over the two shards").hasSize(1);
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("envelope (driver) runs on shard ").endsWith(": not graded here"));
    }

    @Test
    void aRejectedEnvelopeNamesItsFirstReasonAsWorst() throws Exception {
        Path envelope = Files.writeString(dir.resolve("tight.json"),
                "{\"cmd\":[\"x\"],\"timeout_s\":5,\"max_rss_kb\":1,\"max_user_us\":100000000,\"notes\":\"\"}");
        GoalResult result = EnvelopeGoal.grade(EnvelopeGoal.grading(settings("envelope", "tight", "reports"))
                .envelope(envelope)
                .command(List.of(Fixtures.command("crash"), "exit:0"))
                .hostCheck(HostCheck.IGNORE)
                .build(), log);
        assertThat(result.worst()).isEqualTo("rss");
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("[WARNING] Tests run: 1, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: ")
                .endsWith(" s - in billing.patchgrade.envelope.tight"));
        assertThat(lines).contains("[WARNING] worst: rss");
        String xml = Files.readString(dir.resolve("reports/TEST-patchgrade.envelope.tight.xml"));
        assertThat(xml).contains("type=\"rss\"").contains("message=\"rss: ").doesNotContain("rss: rss:");
    }
}
