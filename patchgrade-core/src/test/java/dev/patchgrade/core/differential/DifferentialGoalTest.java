package dev.patchgrade.core.differential;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.patchgrade.core.Fixtures;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.RecordingLog;
import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.classify.ThreeColumnGoal;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.ModuleCheck;
import dev.patchgrade.core.report.ExecutionSummary;
import dev.patchgrade.core.report.HtmlSummary;
import dev.patchgrade.core.report.JsonReports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The differential goal end to end, on real processes: a generator script, a frozen reference and candidates
 * built from {@code tenths_modes.c} (each named for what it does), graded in the sandbox where the kernel allows.
 */
class DifferentialGoalTest {
    /** Prints COUNT cases for SEED: one argument of -1000..1000, a second argument and two lines of stdin on every third. */
    static final String GENERATOR = """
            #!/bin/sh
            s=$(( PATCHGRADE_SEED % 2147483648 ))
            i=0
            while [ "$i" -lt "$PATCHGRADE_COUNT" ]; do
              s=$(( (s * 1103515245 + 12345) % 2147483648 ))
              v=$(( s / 65536 % 2001 - 1000 ))
              if [ $(( i % 3 )) -eq 0 ]; then
                printf '{"id":"c%d","args":["%d","%d"],"stdin":"%d\\\\nnoise\\\\n"}\\n' "$i" "$v" "$i" "$v"
              else
                printf '{"id":"c%d","args":["%d"]}\\n' "$i" "$v"
              fi
              i=$(( i + 1 ))
            done
            """;

    @TempDir
    Path dir;
    private Path reference;
    private Path sidecar;
    private Path generator;

    @BeforeEach
    void programs() throws Exception {
        // The reference in an install prefix of its own, as the README asks.
        reference = program(dir.resolve("frozen/bin"), "tenths");
        generator = script("gen.sh", GENERATOR);
        sidecar = dir.resolve("reference.sha256");
        ThreeColumnGoal.freeze(settings("freeze"), List.of(reference.toString()), sidecar, false, GradeLog.SILENT);
    }

    private Path program(Path directory, String name) throws Exception {
        Files.createDirectories(directory);
        return Files.copy(Fixtures.path("tenths_modes"), directory.resolve(name), StandardCopyOption.COPY_ATTRIBUTES);
    }

    private Path candidate(String name) throws Exception {
        Path existing = dir.resolve("build").resolve(name);
        return Files.exists(existing) ? existing : program(dir.resolve("build"), name);
    }

    private Path script(String name, String text) throws Exception {
        Path file = Files.writeString(dir.resolve(name), text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    private GoalSettings settings(String execution) {
        return new GoalSettings("differential", execution, dir.resolve("reports"), dir.resolve("out"), dir, Map.of());
    }

    private DifferentialGoal.Builder options(String execution, String candidate) throws Exception {
        return DifferentialGoal.builder(settings(execution))
                .reference(List.of(reference.toString()))
                .candidate(List.of(candidate(candidate).toString()))
                .referenceDigest(sidecar)
                .generator(List.of(generator.toString()))
                .count(30)
                .timeoutSeconds(5)
                .parallel(2);
    }

    /** The names of the stream files an execution kept. */
    private List<String> streams(String execution) throws Exception {
        Path directory = settings(execution).streamsDirectory();
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (var files = Files.list(directory)) {
            return files.map(file -> file.getFileName().toString()).toList();
        }
    }

    private JsonNode json(String execution) throws Exception {
        return JsonReports.MAPPER.readTree(settings(execution).jsonReport().toFile());
    }

    @Test
    void anHonestRewriteAgreesOnEveryGeneratedCaseAndTheSeedIsInEveryReport() throws Exception {
        GoalResult result = DifferentialGoal.grade(options("honest", "tenths_fast").seed(new Seed(11, true)).build(), GradeLog.SILENT);
        assertThat(result.error()).isNull();
        assertThat(result.failed()).isFalse();
        assertThat(result.worst()).isEqualTo("pass_agree");
        JsonNode report = json("honest");
        assertThat(report.path("goal").asText()).isEqualTo("differential");
        assertThat(report.path("seed").asLong()).isEqualTo(11);
        assertThat(report.path("seed_given").asBoolean()).isTrue();
        assertThat(report.path("generated").asInt()).isEqualTo(30);
        assertThat(report.path("cases")).hasSize(30);
        assertThat(report.path("counts").path("pass_agree").asInt()).isEqualTo(30);
        String xml = Files.readString(settings("honest").xmlReport());
        assertThat(xml).contains("<property name=\"patchgrade.seed\" value=\"11\"/>", "tests=\"30\"", "failures=\"0\"", "name=\"c0\"", "name=\"c29\"");
        assertThat(Files.readString(DifferentialGoal.feedbackFile(settings("honest")))).isEmpty();
        assertThat(streams("honest")).as("agreeing cases keep no stream files").isEmpty();
        String page = Files.readString(dir.resolve("reports").resolve(HtmlSummary.FILE));
        assertThat(page).contains("differential.honest", "30 generated cases", "<code class=\"seed\">11</code>", "pass_agree");
        assertThat(ModuleCheck.read(dir.resolve("reports"), null).with(ExecutionSummary.Status.PASSED)).extracting(ModuleCheck.Execution::name)
                .contains("differential.honest");
    }

    @Test
    void aTableOfTheCommittedAnswersDiffersAndEachDifferingCaseIsShrunkToASmallerInputThatStillDiffers() throws Exception {
        GoalResult result = DifferentialGoal.grade(options("table", "tenths_table").seed(new Seed(11, true)).build(), GradeLog.SILENT);
        assertThat(result.error()).isNull();
        assertThat(result.worst()).isEqualTo("candidate_differs");
        JsonNode report = json("table");
        List<JsonNode> differing = new ArrayList<>();
        report.path("cases").forEach(c -> {
            if (c.path("pattern").asText().equals("candidate_differs")) {
                differing.add(c);
            }
        });
        assertThat(differing).isNotEmpty().hasSize((int) result.failureCount());
        for (JsonNode c : differing) {
            JsonNode shrunk = c.path("shrunk");
            assertThat(shrunk.isObject()).as(c.path("id").asText()).isTrue();
            assertThat(shrunk.path("run_pairs").asInt()).isBetween(1, DifferentialGoal.SHRINK_BUDGET);
            // Still differs: the two runs on the smallest input printed different answers.
            assertThat(shrunk.path("reference").path("stdout").asText()).isNotEqualTo(shrunk.path("candidate").path("stdout").asText());
            // tenths reads one argument and no stdin, and 1-minimal is one digit from 6 to 9, or a 5 after a digit that keeps it
            // out of the table (5 and 15 are in it, and -7 or 37 would lose a character and still differ).
            assertThat(shrunk.path("args")).hasSize(1);
            assertThat(shrunk.path("args").path(0).asText()).matches("[6-9]|[2-9]5");
            assertThat(shrunk.path("budget_spent").asBoolean()).isFalse();
            if (c.path("stdin").isTextual()) {
                assertThat(shrunk.path("stdin").asText()).isEmpty();
            }
            assertThat(shrunk.path("smaller").asBoolean()).isTrue();
        }
        // The streams of the differing cases only: as generated and at their smallest.
        Set<String> kept = new HashSet<>();
        for (JsonNode c : differing) {
            kept.add(c.path("id").asText() + ".reference.stdout");
            kept.add(c.path("id").asText() + "~smallest.candidate.stdout");
            assertThat(c.path("shrunk").path("reference").path("stdout_file").asText()).endsWith(c.path("id").asText() + "~smallest.reference.stdout");
        }
        assertThat(streams("table")).containsAll(kept).allMatch(name -> differing.stream().anyMatch(c -> name.startsWith(c.path("id").asText() + ".")
                || name.startsWith(c.path("id").asText() + "~smallest.")));
        List<String> feedback = Files.readAllLines(DifferentialGoal.feedbackFile(settings("table")));
        assertThat(feedback).hasSameSizeAs(differing);
        JsonNode line = JsonReports.MAPPER.readTree(feedback.get(0));
        assertThat(line.path("id").asText()).isEqualTo(differing.get(0).path("id").asText());
        assertThat(line.path("args")).isEqualTo(differing.get(0).path("shrunk").path("args"));
        assertThat(line.path("original").path("args")).isEqualTo(differing.get(0).path("args"));
        assertThat(line.path("reference").asText()).isNotEqualTo(line.path("candidate").asText());
        assertThat(line.path("pattern").asText()).isEqualTo("candidate_differs");
        assertThat(line.path("seed").asLong()).isEqualTo(11);
        String xml = Files.readString(settings("table").xmlReport());
        assertThat(xml).contains("type=\"candidate_differs\"", "smallest input that still differs: args [", "seed: 11 (reproduce with seed=11)");
        assertThat(result.failures().get(0)).contains("candidate_differs (reference=<").contains("(shrunk from args [\"");
        assertThat(ModuleCheck.read(dir.resolve("reports"), null).with(ExecutionSummary.Status.FAILED)).singleElement()
                .satisfies(e -> assertThat(e.detail()).isEqualTo(differing.size() + " of 30 case(s) failing"));
    }

    @Test
    void theSameSeedGivesTheSameCasesAndVerdictsAndAnotherSeedOtherCases() throws Exception {
        GoalResult first = DifferentialGoal.grade(options("first", "tenths_table").seed(new Seed(4242, true)).build(), GradeLog.SILENT);
        GoalResult again = DifferentialGoal.grade(options("again", "tenths_table").seed(new Seed(4242, true)).build(), GradeLog.SILENT);
        GoalResult other = DifferentialGoal.grade(options("other", "tenths_table").seed(new Seed(4243, true)).build(), GradeLog.SILENT);
        assertThat(again.failures()).isEqualTo(first.failures());
        assertThat(verdicts(json("again"))).isEqualTo(verdicts(json("first")));
        assertThat(inputs(json("other"))).isNotEqualTo(inputs(json("first")));
        assertThat(other.error()).isNull();
    }

    /** Each case's id, input, pattern and smallest input. */
    private static List<String> verdicts(JsonNode report) {
        List<String> verdicts = new ArrayList<>();
        report.path("cases").forEach(c -> verdicts.add(c.path("id").asText() + " " + c.path("args") + " " + c.path("stdin") + " "
                + c.path("pattern").asText() + " " + c.path("shrunk").path("args") + " " + c.path("shrunk").path("stdin")));
        return verdicts;
    }

    private static List<String> inputs(JsonNode report) {
        List<String> inputs = new ArrayList<>();
        report.path("cases").forEach(c -> inputs.add(c.path("args").toString()));
        return inputs;
    }

    @Test
    void withoutASeedEachGradeDrawsOneAndPrintsHowToGetItBack() throws Exception {
        RecordingLog log = new RecordingLog();
        DifferentialGoal.grade(options("drawn", "tenths_fast").build(), log);
        long seed = json("drawn").path("seed").asLong();
        assertThat(json("drawn").path("seed_given").asBoolean()).isFalse();
        assertThat(seed).isBetween(0L, Seed.DRAWN_BELOW - 1);
        assertThat(log.lines).anySatisfy(line -> assertThat(line).contains("seed " + seed + " (drawn for this build; reproduce with seed=" + seed + ")"));
        assertThat(log.lines).anySatisfy(line -> assertThat(line).isEqualTo("seed " + seed + ": the same cases again with seed=" + seed));
        DifferentialGoal.grade(options("drawn-again", "tenths_fast").build(), GradeLog.SILENT);
        assertThat(json("drawn-again").path("seed").asLong()).isNotEqualTo(seed);
    }

    @Test
    void aDifferentExitStatusWithTheSameStdoutDiffersToo() throws Exception {
        GoalResult result = DifferentialGoal.grade(options("exit", "tenths_exit").seed(new Seed(11, true)).shrink(false).build(), GradeLog.SILENT);
        assertThat(result.worst()).isEqualTo("candidate_differs");
        JsonNode report = json("exit");
        report.path("cases").forEach(c -> {
            boolean endsInSeven = c.path("args").path(0).asText().endsWith("7");
            assertThat(c.path("pattern").asText()).as(c.toString()).isEqualTo(endsInSeven ? "candidate_differs" : "pass_agree");
            assertThat(c.path("shrunk").isNull()).as("shrink is off").isTrue();
        });
        assertThat(result.failures()).allSatisfy(line -> assertThat(line).contains("reference exit 0, candidate exit 1 on args ["));
        assertThat(Files.readString(settings("exit").xmlReport()))
                .contains("\nreference: exit 0; stderr was empty\ncandidate: exit 1; stderr was empty\n");
    }

    @Test
    void aCandidateThatRunsOutOfTimeIsATimeoutAndIsNotShrunk() throws Exception {
        generator = script("gen-timeout.sh", "#!/bin/sh\necho '{\"id\":\"slow\",\"args\":[\"13\"]}'\necho '{\"id\":\"quick\",\"args\":[\"12\"]}'\n");
        GoalResult result = DifferentialGoal.grade(options("slow", "tenths_sleepy").timeoutSeconds(1).count(2).build(), GradeLog.SILENT);
        assertThat(result.worst()).isEqualTo("timeout");
        JsonNode report = json("slow");
        assertThat(report.path("counts").path("timeout").asInt()).isEqualTo(1);
        assertThat(report.path("cases").path(0).path("shrunk").isNull()).isTrue();
        assertThat(report.path("cases").path(0).path("candidate").path("timed_out").asBoolean()).isTrue();
        assertThat(report.path("cases").path(1).path("pattern").asText()).isEqualTo("pass_agree");
    }

    @Test
    void theShardsSplitTheGeneratedCasesBetweenThemWithNoneTwice() throws Exception {
        Set<String> seen = new HashSet<>();
        int total = 0;
        for (int k = 1; k <= 3; k++) {
            String execution = "shard" + k;
            DifferentialGoal.grade(options(execution, "tenths_fast").seed(new Seed(99, true)).shard(Shard.parse(k + "/3")).build(), GradeLog.SILENT);
            JsonNode report = json(execution);
            assertThat(report.path("shard").asText()).isEqualTo(k + "/3");
            assertThat(report.path("generated").asInt()).isEqualTo(30);
            for (JsonNode c : report.path("cases")) {
                assertThat(seen.add(c.path("id").asText())).as("graded once: " + c.path("id")).isTrue();
                total++;
            }
        }
        assertThat(total).isEqualTo(30);
    }

    @Test
    void aShardWithADrawnSeedWarnsThatTheAgentsGradeDifferentSets() throws Exception {
        RecordingLog log = new RecordingLog();
        DifferentialGoal.grade(options("lonely-shard", "tenths_fast").shard(Shard.parse("1/2")).build(), log);
        assertThat(log.warnings).anySatisfy(w -> assertThat(w).contains("with a seed drawn here").contains("seed=<build number>"));
    }

    @Test
    void theCandidateAndTheGeneratorNeverSeeTheReferenceOrTheSeed() throws Exception {
        dev.patchgrade.core.SandboxAvailability.assumeAvailable();
        // The reference prints what the candidate prints where it sees nothing it should not.
        Path peekReference = script("frozen/bin/peek-ref.sh", "#!/bin/sh\necho hidden\necho seed=none\n");
        Path peek = script("peek.sh", "#!/bin/sh\nif cat " + peekReference + " >/dev/null 2>&1; then echo readable; else echo hidden; fi\n"
                + "echo \"seed=${PATCHGRADE_SEED:-none}\"\n");
        // A generator that read the reference could hand its answers to the cases; it must find nothing either.
        generator = script("gen-peek.sh", "#!/bin/sh\nif cat " + peekReference + " >/dev/null 2>&1; then echo 'the reference is readable' >&2; exit 9; fi\n"
                + "echo '{\"id\":\"one\",\"args\":[\"17\"]}'\n");
        Path peekSidecar = dir.resolve("peek.sha256");
        ThreeColumnGoal.freeze(settings("freeze-peek"), List.of(peekReference.toString()), peekSidecar, false, GradeLog.SILENT);
        GoalResult result = DifferentialGoal.grade(DifferentialGoal.builder(settings("peek"))
                .reference(List.of(peekReference.toString()))
                .candidate(List.of(peek.toString()))
                .referenceDigest(peekSidecar)
                .generator(List.of(generator.toString()))
                .count(1)
                .seed(new Seed(5, true))
                .parallel(1)
                .build(), GradeLog.SILENT);
        assertThat(result.error()).as("the generator could not read the reference").isNull();
        assertThat(json("peek").path("cases").path(0).path("candidate").path("stdout").asText()).isEqualTo("hidden\nseed=none\n");
        assertThat(result.worst()).isEqualTo("pass_agree");
    }

    @Test
    void aReferenceHomeIsShownToTheReferenceAndHiddenFromTheCandidate() throws Exception {
        dev.patchgrade.core.SandboxAvailability.assumeAvailable();
        // Data the reference finds beside itself, which no word of its command names: not hidden by default.
        Files.createDirectories(dir.resolve("refdist/share"));
        Files.writeString(dir.resolve("refdist/share/answer.txt"), "42\n");
        Files.createDirectories(dir.resolve("refdist/programs"));
        Path answering = script("refdist/programs/answer.sh", "#!/bin/sh\ncat \"$(dirname \"$0\")/../share/answer.txt\"\n");
        Path copying = script("copy.sh", "#!/bin/sh\ncat " + dir.resolve("refdist/share/answer.txt") + " 2>/dev/null || echo hidden\n");
        generator = script("gen-one.sh", "#!/bin/sh\necho '{\"id\":\"one\",\"args\":[]}'\n");
        Path homeSidecar = dir.resolve("answer.sha256");
        ThreeColumnGoal.freeze(settings("freeze-answer"), List.of(answering.toString()), homeSidecar, false, GradeLog.SILENT);
        DifferentialGoal.Builder grade = DifferentialGoal.builder(settings("home")).reference(List.of(answering.toString()))
                .candidate(List.of(copying.toString())).referenceDigest(homeSidecar).generator(List.of(generator.toString())).count(1)
                .seed(new Seed(5, true)).parallel(1);
        assertThat(DifferentialGoal.grade(grade.build(), GradeLog.SILENT).worst()).as("without referenceHome the copy reads the data")
                .isEqualTo("pass_agree");
        GoalResult hidden = DifferentialGoal.grade(grade.referenceHome(dir.resolve("refdist")).build(), GradeLog.SILENT);
        assertThat(hidden.worst()).isEqualTo("candidate_differs");
        JsonNode c = json("home").path("cases").path(0);
        assertThat(c.path("reference").path("stdout").asText()).isEqualTo("42\n");
        assertThat(c.path("candidate").path("stdout").asText()).isEqualTo("hidden\n");
    }

    @Test
    void aReferenceHomeThatHoldsTheWorkingDirectoryIsABadParameter() throws Exception {
        GoalResult holdsCandidate = DifferentialGoal.grade(options("home-candidate", "tenths_fast").referenceHome(dir).build(), GradeLog.SILENT);
        assertThat(holdsCandidate.error().errorName()).isEqualTo("bad_parameter");
        assertThat(holdsCandidate.error().getMessage()).startsWith("the referenceHome setting is " + dir.toRealPath() + ", which holds the working directory")
                .contains("Install the reference into a prefix of its own");
    }
}
