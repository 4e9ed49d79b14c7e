package dev.patchgrade.core.digest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.RecordingLog;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.report.CaseOutcome;
import dev.patchgrade.core.report.JsonReports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each digest reporter given typed rows: what it writes, and nothing it leaves to another. */
class DigestReportersTest {
    @TempDir
    Path dir;

    private DigestGoal.Options options(boolean keepAll) {
        GoalSettings settings = new GoalSettings("digest", "grade", dir.resolve("reports"), dir.resolve("out"), dir, Map.of());
        return DigestOptions.of(settings, dir.resolve("cases.txt"), dir.resolve("gold"), List.of("/bin/true")).keepAll(keepAll).build();
    }

    private static List<String> names(Path directory) throws Exception {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void candidateDigestsAreWrittenForTheDriftingCasesOnlyAfterAnEarlierGradesAreCleared() throws Exception {
        DigestGoal.Options options = options(false);
        Path directory = DigestGoal.candidateDirectory(options.settings());
        Files.createDirectories(directory);
        Files.writeString(directory.resolve("old.json"), "{}");
        try (CandidateDigests digests = CandidateDigests.cleared(options, "gcc 13.2", null)) {
            digests.row(DigestRows.passing("a"));
            digests.row(DigestRows.drifting("b", null, DriftField.EXIT));
        }
        assertThat(names(directory)).containsExactly("b.json");
        var digest = JsonReports.MAPPER.readTree(directory.resolve("b.json").toFile());
        assertThat(digest.get("exit").asInt()).as("the candidate's tuple, not the gold's").isEqualTo(1);
        assertThat(digest.get("toolchain").asText()).isEqualTo("gcc 13.2");
    }

    @Test
    void withKeepAllEveryCaseHasItsCandidateDigest() throws Exception {
        DigestGoal.Options options = options(true);
        try (CandidateDigests digests = CandidateDigests.cleared(options, null, null)) {
            digests.row(DigestRows.passing("a"));
            digests.row(DigestRows.drifting("b", null, DriftField.EXIT));
        }
        assertThat(names(DigestGoal.candidateDirectory(options.settings()))).containsExactly("a.json", "b.json");
    }

    @Test
    void theConsoleListsTheDriftingCasesThenTheOutcomeAndWhatToDoOfEachKind() {
        RecordingLog log = new RecordingLog();
        DigestConsole console = new DigestConsole(options(false), log);
        DigestTally tally = new DigestTally(null);
        for (DigestRow row : List.of(DigestRows.passing("a"), DigestRows.drifting("b", null, DriftField.EXIT), DigestRows.sanitizerFinding("c"))) {
            tally.add(row);
            console.row(row);
        }
        assertThat(log.lines).as("the table is held until the summary").isEmpty();
        console.finish(tally.result());
        assertThat(String.join("\n", log.lines)).contains("digest of 3 case(s) against " + dir.resolve("gold") + ":")
                .contains("b     FAIL     exit: gold -> candidate")
                .doesNotContain("a     pass")
                .contains("1 more case(s) not listed (1 passed; list every case with")
                .contains("outcome: FAIL, 2 of 3 case(s) drifted")
                .contains("1 case(s) failed on a sanitizer report the gold does not have")
                .contains("(not for the sanitizer findings)");
    }

    @Test
    void theJUnitViewOfADriftingCaseNamesTheWorstDriftAndKeepsItsStreams() {
        DigestRow row = DigestRows.drifting("b", dir, DriftField.STDERR_SHA256, DriftField.EXIT);
        CaseOutcome outcome = new DigestJUnit(options(false), new RecordingLog()).apply(row);
        assertThat(outcome.status()).isEqualTo(CaseOutcome.Status.FAILED);
        assertThat(outcome.type()).isEqualTo("exit");
        assertThat(outcome.message()).isEqualTo("stderr_sha256: gold -> candidate; exit: gold -> candidate");
        assertThat(outcome.keptFiles()).containsExactly(dir.resolve("b.stdout"), dir.resolve("b.stderr"));
        assertThat(outcome.details()).contains("if the new behaviour is intended: ");
    }

    @Test
    void theJsonHeadIsTheResultsCountsAndWorstWithTheExecutionsSettings() {
        DigestGoal.Options options = options(false);
        DigestResult result = new DigestResult(5, 2, 0, DriftField.STDOUT_SHA256, List.of(), TimeBasis.WALL);
        var head = JsonReports.MAPPER.valueToTree(new DigestJson(options).head(result));
        assertThat(head.get("verdict").asText()).isEqualTo("fail");
        assertThat(head.get("worst").asText()).isEqualTo("stdout_sha256");
        assertThat(head.get("graded").asLong()).isEqualTo(5);
        assertThat(head.get("failing").asLong()).isEqualTo(2);
        assertThat(head.get("time_basis").asText()).isEqualTo("wall");
        assertThat(head.get("candidate_digests").asText()).isEqualTo(DigestGoal.candidateDirectory(options.settings()).toString());
    }
}
