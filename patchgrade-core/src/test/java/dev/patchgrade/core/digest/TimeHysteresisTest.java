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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Time buckets with hysteresis, on /bin/sleep with timeBasis wall: a sleep is a lower bound on the wall
 * time that no load can shorten, and the bounds asserted here are far from anything load can stretch to.
 */
class TimeHysteresisTest {
    @TempDir
    Path dir;
    private Path cases;
    private Path gold;

    @BeforeEach
    void files() throws Exception {
        cases = Files.writeString(dir.resolve("cases.txt"), "0.2\n");
        gold = dir.resolve("gold");
    }

    private DigestGoal.Options options(String goal, String buckets, int samples, double slack) {
        GoalSettings settings = new GoalSettings(goal, "sleep", dir.resolve("reports"), dir.resolve("out"), dir, Map.of());
        return DigestGoal.Options.builder(settings)
                .cases(cases)
                .gold(gold)
                .command(List.of("/bin/sleep"))
                .timeoutSeconds(30)
                .buckets(TimeBuckets.parse(buckets))
                .timeBucketReruns(1)
                .parallel(1)
                .force(true)
                .timeSamples(samples)
                .timeBucketSlack(slack)
                .timeBasis(TimeBasis.WALL)
                .build();
    }

    private void goldFile(String bucket, Long timeMs) throws Exception {
        DigestTuple recorded = DigestGoal.record(options("record-digest", "50,500,5000", 1, 2), GradeLog.SILENT).first().get(0);
        GoldWriter.replace(gold, List.of(recorded.withTime(Buckets.label(bucket), timeMs)), null, List.of());
    }

    private JsonNode gradedCase() throws Exception {
        return JsonReports.MAPPER.readTree(options("digest", "", 1, 2).settings().jsonReport().toFile()).path("cases").get(0);
    }

    @Test
    void recordingKeepsTheFastestOfTheSamplesAndItsBucket() throws Exception {
        DigestTuple tuple = DigestGoal.record(options("record-digest", "50,500,5000", 3, 2), GradeLog.SILENT).first().get(0);
        assertThat(tuple.timeMs()).isGreaterThanOrEqualTo(200L);
        assertThat(tuple.timeBucket()).isEqualTo(TimeBuckets.parse(null).bucket(tuple.timeMs()));
        JsonNode file = JsonReports.MAPPER.readTree(gold.resolve("0.2.json").toFile());
        assertThat(file.path("time_ms").asLong()).isEqualTo(tuple.timeMs());
        assertThat(file.path("time_basis").asText()).isEqualTo("wall");
    }

    @Test
    void aTimeOutsideTheWidenedBucketDriftsAndTheReportShowsTheFastestAndTheLimits() throws Exception {
        goldFile("lt_50ms", 3L);
        GoalResult result = DigestGoal.grade(options("digest", "50,500,5000", 1, 2), GradeLog.SILENT);
        assertThat(result.failures()).hasSize(1);
        JsonNode row = gradedCase();
        assertThat(row.path("drift_fields").get(0).asText()).isEqualTo("time_bucket");
        assertThat(row.path("drift").get(0).asText()).startsWith("time_bucket: lt_50ms -> ")
                .containsPattern("fastest [0-9,]+ ms wall of 2 runs; lt_50ms widened by timeBucketSlack 2 is 0-100 ms; gold fastest 3 ms");
        assertThat(row.path("candidate").path("time_ms").asLong()).isGreaterThanOrEqualTo(200L);
        assertThat(Files.readString(dir.resolve("reports/index.html"))).contains("widened by timeBucketSlack 2 is 0-100 ms");
    }

    @Test
    void aTimeInAnotherBucketButInsideTheWidenedOneDoesNotDrift() throws Exception {
        // lt_50ms widened by 25 is 0-1,250 ms: a 200 ms sleep is never in lt_50ms, and lies inside unless load adds a second.
        goldFile("lt_50ms", 3L);
        GoalResult result = DigestGoal.grade(options("digest", "50,500,5000", 1, 25), GradeLog.SILENT);
        assertThat(result.failures()).isEmpty();
        assertThat(gradedCase().path("candidate").path("time_bucket").asText()).isNotEqualTo("lt_50ms");
    }

    @Test
    void slackOneGradesTheBucketsExactly() {
        TimeBuckets buckets = TimeBuckets.parse(null);
        TimeBucket lt500 = buckets.named("lt_500ms").orElseThrow();
        assertThat(lt500.outside(49, 1)).isTrue();
        assertThat(lt500.outside(50, 1)).isFalse();
        assertThat(lt500.outside(499, 1)).isFalse();
    }

    @Test
    void bucketsOffRecordAndGradeNoTime() throws Exception {
        DigestTuple tuple = DigestGoal.record(options("record-digest", "off", 3, 2), GradeLog.SILENT).first().get(0);
        assertThat(tuple.timeBucket()).isNull();
        assertThat(tuple.timeMs()).isNull();
        String file = Files.readString(gold.resolve("0.2.json"));
        assertThat(file).doesNotContain("time_bucket").doesNotContain("time_ms");
        assertThat(DigestGoal.grade(options("digest", "off", 1, 2), GradeLog.SILENT).failures()).isEmpty();

        GoalResult withBuckets = DigestGoal.grade(options("digest", "50,500,5000", 1, 2), GradeLog.SILENT);
        assertThat(withBuckets.error().errorName()).isEqualTo("malformed_gold");
        assertThat(withBuckets.error().getMessage()).contains("0.2.json").contains("\"time_bucket\" is missing").contains("timeBuckets=off");
    }

    @Test
    void anOldGoldFileWithoutTimeMsStillGrades() throws Exception {
        goldFile("lt_500ms", null);
        assertThat(Files.readString(gold.resolve("0.2.json"))).doesNotContain("time_ms");
        GoalResult result = DigestGoal.grade(options("digest", "50,500,5000", 1, 10), GradeLog.SILENT);
        assertThat(result.failures()).isEmpty();
    }
}
