package dev.patchgrade.core.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.patchgrade.core.Fixtures;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.count.CounterMode;
import dev.patchgrade.core.count.ValgrindCounter;
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
 * max_instructions end to end with Valgrind: recorded with its slack and counter, graded in a run of
 * its own, and never passed when it cannot be counted. CPU slack is wide here so that only the
 * instruction count decides, whatever the load on the machine.
 */
class InstructionCeilingTest {
    private static final Slack WIDE_CPU = new Slack(30, 1024, 1000, 5_000_000);

    @TempDir
    Path dir;
    private Path envelope;

    @BeforeEach
    void valgrindIsInstalled() {
        assumeTrue(ValgrindCounter.locate(System.getenv("PATH")).isPresent(), "valgrind is not installed");
        envelope = dir.resolve("envelope.json");
    }

    private GoalSettings settings(String goal) {
        return new GoalSettings(goal, "instructions", dir.resolve("reports"), dir.resolve("out"), dir, Map.of());
    }

    private void record(CounterMode mode, String millions) {
        EnvelopeGoal.record(EnvelopeGoal.recording(settings("record-envelope"))
                .envelope(envelope)
                .command(List.of(Fixtures.command("burn_cpu"), millions))
                .timeoutSeconds(5)
                .slack(WIDE_CPU)
                .force(true)
                .instructionCounter(mode)
                .instructionSlackPercent(2)
                .build(), GradeLog.SILENT);
    }

    private GoalResult grade(CounterMode mode, String millions) {
        return grade(mode, List.of(Fixtures.command("burn_cpu"), millions));
    }

    private GoalResult grade(CounterMode mode, List<String> command) {
        return EnvelopeGoal.grade(EnvelopeGoal.grading(settings("envelope"))
                .envelope(envelope)
                .command(command)
                .hostCheck(HostCheck.IGNORE)
                .instructionCounter(mode)
                .build(), GradeLog.SILENT);
    }

    private JsonNode report() throws Exception {
        return JsonReports.MAPPER.readTree(settings("envelope").jsonReport().toFile());
    }

    @Test
    void recordingWritesTheCountPlusTwoPercentAndTheCounter() throws Exception {
        record(CounterMode.VALGRIND, "2");
        JsonNode file = JsonReports.MAPPER.readTree(envelope.toFile());
        long measured = file.path("measured").path("instructions").asLong();
        assertThat(measured).isGreaterThan(2_000_000L);
        assertThat(file.path("max_instructions").asLong()).isEqualTo((measured * 102 + 99) / 100);
        assertThat(file.path("instruction_counter").asText()).isEqualTo("valgrind");
        assertThat(file.path("slack").path("instructions_percent").asInt()).isEqualTo(2);
        assertThat(EnvelopeFile.read(envelope).ceilings()).containsKey(Ceiling.INSTRUCTIONS);
    }

    @Test
    void theSameWorkPassesAndMoreWorkIsRejectedForInstructions() throws Exception {
        record(CounterMode.VALGRIND, "2");
        GoalResult same = grade(CounterMode.AUTO, "2");
        assertThat(same.failures()).isEmpty();
        assertThat(report().path("measured").path("instruction_counter").asText()).isEqualTo("valgrind");
        assertThat(report().path("figures").findValuesAsText("ceiling_key")).contains("max_instructions");

        GoalResult more = grade(CounterMode.VALGRIND, "3");
        assertThat(more.failures()).hasSize(1);
        assertThat(report().path("reasons").get(0).asText()).isEqualTo("instructions");
        assertThat(Files.readString(settings("envelope").xmlReport())).contains("type=\"instructions\"").containsPattern("instructions: [0-9,]+ > [0-9,]+");
    }

    @Test
    void anotherCounterThanTheRecordedOneIsCounterDrift() throws Exception {
        record(CounterMode.VALGRIND, "1");
        Files.writeString(envelope, Files.readString(envelope).replace("\"instruction_counter\" : \"valgrind\"", "\"instruction_counter\" : \"perf\""));
        GoalResult result = grade(CounterMode.VALGRIND, "1");
        assertThat(result.error().errorName()).isEqualTo("counter_drift");
        assertThat(result.error().getMessage()).contains(envelope.toString()).contains("instructionCounter=perf");
        assertThat(Files.readString(settings("envelope").xmlReport())).contains("type=\"counter_drift\"");
    }

    @Test
    void aCeilingThatCannotBeCountedIsAnErrorNeverAPass() throws Exception {
        record(CounterMode.VALGRIND, "1");
        GoalResult result = grade(CounterMode.NONE, "1");
        assertThat(result.error().errorName()).isEqualTo("unmeasurable_ceiling");
        assertThat(result.error().getMessage()).contains("max_instructions").contains("instructionCounter=none");
        assertThat(report().path("verdict").asText()).isEqualTo("error");
    }

    @Test
    void aProgramThatPrintsSomethingElseUnderValgrindIsRejectedForInstructionsNeverPassed() throws Exception {
        record(CounterMode.VALGRIND, "1");
        // Under Valgrind it skips its work and says so: a tiny count, from a run that is not the graded one.
        GoalResult result = grade(CounterMode.VALGRIND, List.of(Fixtures.command("attacker"), "counter-aware", "30"));
        assertThat(result.error()).isNull();
        assertThat(result.failures()).singleElement().asString().contains("instructions: the counted run (under valgrind) printed something "
                + "else than the graded runs").contains("behaves differently under the counter");
        assertThat(report().path("verdict").asText()).isEqualTo("reject");
        assertThat(report().path("reasons").get(0).asText()).isEqualTo("instructions");
        assertThat(report().path("measured").path("instructions").isNull()).isTrue();
        assertThat(report().path("measured").path("instructions_problem").asText()).contains("printed something else");
        assertThat(Files.readString(settings("envelope").xmlReport())).contains("type=\"instructions\"")
                .contains("message=\"instructions: the counted run (under valgrind) printed something else");
    }

    private List<String> recordWarnings(List<String> command, int runs) {
        List<String> warnings = new java.util.ArrayList<>();
        EnvelopeGoal.record(EnvelopeGoal.recording(settings("record-envelope"))
                .envelope(envelope).command(command).runs(runs).timeoutSeconds(5).slack(WIDE_CPU).force(true)
                .instructionCounter(CounterMode.AUTO).build(), new GradeLog() {
                    @Override
                    public void info(String message) {}

                    @Override
                    public void warn(String message) {
                        warnings.add(message);
                    }

                    @Override
                    public void debug(String message) {}
                });
        return warnings;
    }

    @Test
    void aKnownGoodProgramThatPrintsItsOwnTimingsIsRecordedWithoutAnInstructionCeiling() throws Exception {
        for (int runs : new int[] {1, 3}) {
            List<String> command = List.of(Fixtures.command("print_timing"), "2");
            List<String> warnings = recordWarnings(command, runs);
            assertThat(warnings).as("runs=" + runs).filteredOn(w -> w.contains("max_instructions")).singleElement().asString()
                    .startsWith("no max_instructions recorded in " + envelope + ": ").contains("(under valgrind)")
                    .contains("The other ceilings are recorded");
            JsonNode file = JsonReports.MAPPER.readTree(envelope.toFile());
            assertThat(file.has("max_instructions")).isFalse();
            assertThat(file.has("instruction_counter")).isFalse();
            assertThat(file.path("max_rss_kb").asLong()).isPositive();
            assertThat(file.path("max_user_us").asLong()).isPositive();
            assertThat(file.path("notes").asText()).contains("No max_instructions: the run counted by valgrind printed something else");
            assertThat(grade(CounterMode.AUTO, command).failures()).as("the known-good program grades").isEmpty();
        }
    }

    @Test
    void aKnownGoodProgramThatSeesTheCounterIsRecordedWithoutAnInstructionCeiling() throws Exception {
        List<String> command = List.of(Fixtures.command("attacker"), "counter-aware", "2");
        assertThat(recordWarnings(command, 1)).filteredOn(w -> w.contains("max_instructions")).singleElement().asString()
                .contains("printed something else than the graded runs");
        assertThat(JsonReports.MAPPER.readTree(envelope.toFile()).has("max_instructions")).isFalse();
    }

    @Test
    void theCountedRunsWallTimeIsReportedBesideTheNativeRuns() throws Exception {
        record(CounterMode.VALGRIND, "2");
        assertThat(grade(CounterMode.VALGRIND, "2").failures()).isEmpty();
        JsonNode measured = report().path("measured");
        assertThat(measured.path("counted_wall_ms").isIntegralNumber()).as(measured.toString()).isTrue();
        assertThat(measured.path("counted_wall_ms").asLong()).as("Valgrind is slower than the native run")
                .isGreaterThanOrEqualTo(report().path("runs").get(0).path("wall_ms").asLong());
    }

    @Test
    void recordingWithNoneWritesNoInstructionCeiling() throws Exception {
        record(CounterMode.NONE, "1");
        JsonNode file = JsonReports.MAPPER.readTree(envelope.toFile());
        assertThat(file.has("max_instructions")).isFalse();
        assertThat(file.has("instruction_counter")).isFalse();
        assertThat(grade(CounterMode.NONE, "1").failures()).isEmpty();
    }
}
