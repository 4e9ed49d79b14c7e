package dev.patchgrade.core.digest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
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

/**
 * What a time bucket measures is recorded with the gold, and a gold is graded on the basis it was
 * recorded on: a CPU time and a wall time cannot be compared. A 200 ms sleep tells them apart: it is
 * 200 ms of wall time, and next to no CPU time.
 */
class TimeBasisTest {
    private static final String E = DigestTuple.EMPTY_SHA256;

    @TempDir
    Path dir;
    private final List<String> warnings = new ArrayList<>();

    private final GradeLog log = new GradeLog() {
        @Override
        public void info(String message) {}

        @Override
        public void warn(String message) {
            warnings.add(message);
        }

        @Override
        public void debug(String message) {}
    };

    private DigestGoal.Options sleep(String goal, TimeBasis basis) throws Exception {
        Path cases = Files.writeString(dir.resolve("cases.txt"), "0.2\n");
        GoalSettings settings = new GoalSettings(goal, "sleep", dir.resolve("reports"), dir.resolve("out"), dir, Map.of());
        return DigestGoal.Options.builder(settings).cases(cases).gold(dir.resolve("gold")).command(List.of("/bin/sleep")).timeoutSeconds(30)
                .buckets(TimeBuckets.parse("50,500,5000")).timeBucketReruns(0).timeSamples(1).parallel(1).force(true).timeBasis(basis).build();
    }

    private JsonNode goldFile() throws Exception {
        return JsonReports.MAPPER.readTree(dir.resolve("gold/0.2.json").toFile());
    }

    @Test
    void cpuIsTheDefaultAndWallTheOther() {
        assertThat(DigestGoal.Options.builder(new GoalSettings("digest", "e", dir, dir, dir, Map.of())).build().timeBasis()).isEqualTo(TimeBasis.CPU);
        assertThat(TimeBasis.parse(TimeBasis.DEFAULT)).isEqualTo(TimeBasis.CPU);
        assertThat(TimeBasis.parse(" Wall ")).isEqualTo(TimeBasis.WALL);
        assertThatThrownBy(() -> TimeBasis.parse("user")).isInstanceOfSatisfying(PatchgradeException.class,
                e -> assertThat(e.errorName()).isEqualTo("bad_parameter")).hasMessageContaining("timeBasis").hasMessageContaining("\"user\"");
    }

    @Test
    void theRecordedBasisIsWrittenBesideTheTime() throws Exception {
        DigestTuple cpu = DigestGoal.record(sleep("record-digest", TimeBasis.CPU), GradeLog.SILENT).first().get(0);
        assertThat(goldFile().path("time_basis").asText()).isEqualTo("cpu");
        assertThat(cpu.timeMs()).as("a sleep costs next to no CPU").isLessThan(100L);
        DigestTuple wall = DigestGoal.record(sleep("record-digest", TimeBasis.WALL), GradeLog.SILENT).first().get(0);
        assertThat(goldFile().path("time_basis").asText()).isEqualTo("wall");
        assertThat(wall.timeMs()).isGreaterThanOrEqualTo(200L);
        assertThat(wall.timeBucket().label()).isEqualTo("lt_500ms");
    }

    @Test
    void aWallGoldIsGradedOnWallTimeWhateverTheExecutionSaysAndItWarnsOnce() throws Exception {
        DigestGoal.record(sleep("record-digest", TimeBasis.WALL), GradeLog.SILENT);
        // On CPU time the sleep would be ~0 ms, under lt_500ms widened to 25-1,000 ms: graded on wall time, it stays inside.
        GoalResult result = DigestGoal.grade(sleep("digest", TimeBasis.CPU), log);
        assertThat(result.failures()).isEmpty();
        assertThat(warnings).filteredOn(w -> w.contains("time_basis") || w.contains("timeBasis")).singleElement().asString()
                .contains(dir.resolve("gold").toString()).contains("was recorded with timeBasis=wall").contains("graded on wall time as recorded")
                .contains("with force=true, timeBasis=cpu");
        JsonNode report = JsonReports.MAPPER.readTree(sleep("digest", TimeBasis.CPU).settings().jsonReport().toFile());
        assertThat(report.path("time_basis").asText()).isEqualTo("wall");
        assertThat(report.path("cases").get(0).path("candidate").path("time_ms").asLong()).isGreaterThanOrEqualTo(200L);
    }

    @Test
    void aGoldWithoutABasisHoldsWallTimes() throws Exception {
        DigestTuple recorded = DigestGoal.record(sleep("record-digest", TimeBasis.WALL), GradeLog.SILENT).first().get(0);
        GoldWriter.replace(dir.resolve("gold"), List.of(recorded), null, List.of());
        assertThat(goldFile().has("time_basis")).isFalse();
        assertThat(DigestGoal.grade(sleep("digest", TimeBasis.CPU), log).failures()).isEmpty();
        assertThat(warnings).anySatisfy(w -> assertThat(w).contains("names no time_basis, so its times are wall times"));
        warnings.clear();
        assertThat(DigestGoal.grade(sleep("digest", TimeBasis.WALL), log).failures()).isEmpty();
        assertThat(warnings).as("a wall execution grading a wall gold has nothing to say").noneMatch(w -> w.contains("time_basis"));
    }

    @Test
    void aCpuGoldIsGradedOnCpuTime() throws Exception {
        DigestGoal.record(sleep("record-digest", TimeBasis.CPU), GradeLog.SILENT);
        assertThat(DigestGoal.grade(sleep("digest", TimeBasis.WALL), log).failures()).as("graded on CPU time as recorded: the sleep costs none")
                .isEmpty();
        assertThat(warnings).anySatisfy(w -> assertThat(w).contains("was recorded with timeBasis=cpu").contains("graded on CPU time"));
    }

    @Test
    void aGoldFileNamesItsBasisOrNoneAndOneDirectoryHasOne() throws Exception {
        Path gold = Files.createDirectories(dir.resolve("hand"));
        String tuple = "\"exit\": 0, \"stdout_sha256\": \"" + E + "\", \"stderr_sha256\": \"" + E + "\", \"sanitizer\": \"clean\", "
                + "\"time_bucket\": \"lt_50ms\"";
        Files.writeString(gold.resolve("a.json"), "{\"case\": \"a\", " + tuple + ", \"time_basis\": \"cpu\"}");
        assertThat(GoldStore.read(gold, TimeBuckets.parse(null)).timeBasis()).isEqualTo(TimeBasis.CPU);
        Files.writeString(gold.resolve("b.json"), "{\"case\": \"b\", " + tuple + "}");
        assertThatThrownBy(() -> GoldStore.read(gold, TimeBuckets.parse(null))).isInstanceOfSatisfying(PatchgradeException.class,
                e -> assertThat(e.errorName()).isEqualTo("malformed_gold")).hasMessageContaining("b.json").hasMessageContaining("time basis");
        Files.writeString(gold.resolve("b.json"), "{\"case\": \"b\", " + tuple + ", \"time_basis\": \"user\"}");
        assertThatThrownBy(() -> GoldStore.read(gold, TimeBuckets.parse(null))).hasMessageContaining("b.json: key \"time_basis\" is \"user\"")
                .hasMessageContaining("cpu or wall");
        Files.delete(gold.resolve("a.json"));
        Files.writeString(gold.resolve("b.json"), "{\"case\": \"b\", " + tuple + "}");
        assertThat(GoldStore.read(gold, TimeBuckets.parse(null)).timeBasis()).as("none named: wall time").isNull();
    }
}
