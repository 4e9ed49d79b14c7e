package dev.patchgrade.core.differential;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.cases.Case;
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

/** The differential tally and reporters given typed rows: what they count and what they write. */
class DifferentialReportersTest {
    private static final Seed SEED = new Seed(7, true);

    @TempDir
    Path dir;

    private static LaunchResult run(String stdout) {
        byte[] out = stdout.getBytes(StandardCharsets.UTF_8);
        return new LaunchResult(null, 0, null, null, false, false, Usage.UNAVAILABLE, 1_000, new StreamDigest("x", out.length, out, new byte[0], null),
                new StreamDigest("y", 0, new byte[0], new byte[0], null));
    }

    private static DifferentialRow agreeing(String id) {
        return new DifferentialRow(new Case(id, List.of("1"), null, null, 1), run("1\n"), run("1\n"), DifferentialPattern.PASS_AGREE, null);
    }

    /** Differs on {@code args [big]}, and still on the smaller {@code args [7]}. */
    private static DifferentialRow shrunk(String id, String big) {
        Case original = new Case(id, List.of(big), null, null, 1);
        DifferentialRow.Shrunk smallest = new DifferentialRow.Shrunk(new Case(id, List.of("7"), null, null, 1), run("1\n"), run("0\n"), 12, false);
        return new DifferentialRow(original, run("9\n"), run("8\n"), DifferentialPattern.CANDIDATE_DIFFERS, smallest);
    }

    @Test
    void theTallyCountsEachPatternKeepsTheGeneratedCountAndNamesTheWorst() {
        DifferentialTally tally = new DifferentialTally(120);
        tally.add(agreeing("a"));
        tally.add(shrunk("b", "1576"));
        tally.add(agreeing("c"));
        DifferentialResult result = tally.result();
        assertThat(result.generated()).as("every shard's, for the head").isEqualTo(120);
        assertThat(result.graded()).isEqualTo(3);
        assertThat(result.failed()).isEqualTo(1);
        assertThat(result.counts()).containsExactly(Map.entry(DifferentialPattern.CANDIDATE_DIFFERS, 1L), Map.entry(DifferentialPattern.PASS_AGREE, 2L));
        assertThat(result.goalResult().worst()).isEqualTo("candidate_differs");
        assertThat(result.failures()).singleElement().asString()
                .isEqualTo("b: candidate_differs (reference=<1> candidate=<0> on args [\"7\"] (shrunk from args [\"1576\"] in 12 run pair(s)))");
    }

    @Test
    void aFeedbackLineLeadsWithTheSmallestInputAndNamesTheCaseItCameFrom() throws Exception {
        GoalSettings settings = new GoalSettings("differential", "grade", dir.resolve("reports"), dir.resolve("out"), dir, Map.of());
        DifferentialGoal.Options options = DifferentialGoal.builder(settings).reference(List.of("/bin/ref")).candidate(List.of("/bin/cand")).build();
        try (DifferentialFiles files = new DifferentialFiles(options, SEED)) {
            files.row(agreeing("a"));
            files.row(shrunk("b", "1576"));
            files.finish(null);
        }
        List<String> lines = Files.readAllLines(DifferentialGoal.feedbackFile(settings));
        assertThat(lines).hasSize(1);
        var line = JsonReports.MAPPER.readTree(lines.get(0));
        assertThat(line.get("args").toString()).isEqualTo("[\"7\"]");
        assertThat(line.get("reference").asText()).isEqualTo("1\n");
        assertThat(line.get("candidate").asText()).isEqualTo("0\n");
        assertThat(line.get("seed").asLong()).isEqualTo(7);
        assertThat(line.get("original").get("args").toString()).isEqualTo("[\"1576\"]");
    }
}
