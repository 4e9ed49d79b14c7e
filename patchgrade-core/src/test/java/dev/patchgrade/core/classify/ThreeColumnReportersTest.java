package dev.patchgrade.core.classify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.RecordingLog;
import dev.patchgrade.core.cases.Case;
import dev.patchgrade.core.classify.ThreeColumnGrading.Row;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.launch.StreamDigest;
import dev.patchgrade.core.launch.Usage;
import dev.patchgrade.core.report.JsonReports;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The three-column tally and reporters given typed rows: what they count and what they write. */
class ThreeColumnReportersTest {
    @TempDir
    Path dir;

    private ThreeColumnGoal.Options options(boolean keepAll) {
        GoalSettings settings = new GoalSettings("three-column", "grade", dir.resolve("reports"), dir.resolve("out"), dir, Map.of());
        return ThreeColumnGoal.builder(settings).cases(dir.resolve("cases.jsonl")).reference(List.of("/bin/ref")).candidate(List.of("/bin/cand"))
                .keepAll(keepAll).build();
    }

    /** A row whose four stream files exist under the temporary directory, as the grading kept them. */
    private Row row(String id, String candidateOut, DriftPattern pattern) throws Exception {
        return new Row(new Case(id, List.of(id), null, "1\n", 1), run(id + ".ref", "1\n"), run(id + ".cand", candidateOut), pattern);
    }

    private LaunchResult run(String stem, String stdout) throws Exception {
        byte[] out = stdout.getBytes(StandardCharsets.UTF_8);
        Path outFile = Files.write(dir.resolve(stem + ".stdout"), out);
        Path errFile = Files.write(dir.resolve(stem + ".stderr"), new byte[0]);
        return new LaunchResult(null, 0, null, null, false, false, Usage.UNAVAILABLE, 2_000, new StreamDigest("x", out.length, out, new byte[0], outFile),
                new StreamDigest("y", 0, new byte[0], new byte[0], errFile));
    }

    @Test
    void theTallyCountsEachPatternAndTheWorstIsTheMostSevereSeen() throws Exception {
        ThreeColumnTally tally = new ThreeColumnTally();
        tally.add(row("a", "1\n", DriftPattern.PASS_ALL_AGREE));
        tally.add(row("b", "2\n", DriftPattern.CANDIDATE_REGRESSION));
        tally.add(row("c", "1\n", DriftPattern.PASS_ALL_AGREE));
        tally.add(row("d", "3\n", DriftPattern.THREE_WAY_SPLIT));
        ThreeColumnResult result = tally.result();
        assertThat(result.counts()).containsExactly(Map.entry(DriftPattern.THREE_WAY_SPLIT, 1L), Map.entry(DriftPattern.CANDIDATE_REGRESSION, 1L),
                Map.entry(DriftPattern.PASS_ALL_AGREE, 2L));
        assertThat(result.graded()).isEqualTo(4);
        assertThat(result.failed()).isEqualTo(2);
        assertThat(result.worst()).isEqualTo(DriftPattern.THREE_WAY_SPLIT);
        assertThat(result.failures()).containsExactly("b: candidate_regression (reference=<1> candidate=<2> golden=<1>)",
                "d: three_way_split (reference=<1> candidate=<3> golden=<1>)");
    }

    @Test
    void anExecutionWithNoRowIsWorstPassAllAgree() {
        assertThat(new ThreeColumnTally().result().goalResult().worst()).isEqualTo("pass_all_agree");
    }

    @Test
    void theFilesReporterDropsAPassingRowsStreamsAndWritesAFeedbackLinePerFailingRow() throws Exception {
        ThreeColumnGoal.Options options = options(false);
        Row passing = row("a", "1\n", DriftPattern.PASS_ALL_AGREE);
        Row failing = row("b", "2\n", DriftPattern.CANDIDATE_REGRESSION);
        try (ThreeColumnFiles files = new ThreeColumnFiles(options)) {
            files.row(passing);
            files.row(failing);
            assertThat(passing.files()).noneMatch(Files::exists);
            assertThat(failing.files()).allMatch(Files::exists);
            assertThat(ThreeColumnGoal.feedbackFile(options.settings())).as("put in place only at the end").doesNotExist();
            files.finish(null);
        }
        List<String> lines = Files.readAllLines(ThreeColumnGoal.feedbackFile(options.settings()));
        assertThat(lines).hasSize(1);
        var line = JsonReports.MAPPER.readTree(lines.get(0));
        assertThat(line.get("id").asText()).isEqualTo("b");
        assertThat(line.get("candidate").asText()).isEqualTo("2\n");
        assertThat(line.has("golden")).as("the golden never reaches the next generation request").isFalse();
    }

    @Test
    void withKeepAllEveryRowKeepsItsStreams() throws Exception {
        Row passing = row("a", "1\n", DriftPattern.PASS_ALL_AGREE);
        try (ThreeColumnFiles files = new ThreeColumnFiles(options(true))) {
            files.row(passing);
        }
        assertThat(passing.files()).allMatch(Files::exists);
    }

    @Test
    void theConsoleListsTheFailingRowsThenThePatternCountsAndTheWorst() throws Exception {
        RecordingLog log = new RecordingLog();
        ThreeColumnConsole console = new ThreeColumnConsole(options(false), log);
        ThreeColumnTally tally = new ThreeColumnTally();
        for (Row row : List.of(row("a", "1\n", DriftPattern.PASS_ALL_AGREE), row("b", "2\n", DriftPattern.CANDIDATE_REGRESSION))) {
            tally.add(row);
            console.row(row);
        }
        console.finish(tally.result());
        String text = String.join("\n", log.lines);
        assertThat(text).contains("three-column grade of 2 row(s), comparison ")
                .contains("b     candidate_regression  reference=<1> candidate=<2> golden=<1>")
                .contains("1 more row(s) not listed")
                .contains("candidate_regression  1").contains("pass_all_agree        1")
                .endsWith("worst pattern: candidate_regression (" + DriftPattern.CANDIDATE_REGRESSION.advice() + ")");
    }
}
