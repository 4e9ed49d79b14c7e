package dev.patchgrade.core.coverage;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.patchgrade.core.RecordingLog;
import dev.patchgrade.core.SandboxAvailability;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.launch.SandboxSpec;
import dev.patchgrade.core.report.JsonReports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The goal end to end: a real git repository, a real gcc --coverage build, real gcov, the cases run in the sandbox. */
class PatchCoverageGoalTest {
    @TempDir
    static Path dir;
    static CoverageProject project;

    @BeforeAll
    static void build() throws Exception {
        project = CoverageProject.create(dir.resolve("calc"));
    }

    private static PatchCoverageGoal.Options options(GoalSettings settings, Path cases, double minimum, int parallel) {
        return PatchCoverageGoal.Options.builder(settings).cases(cases).command(List.of(project.binary.toString())).minimumPercent(minimum)
                .parallel(parallel).timeoutSeconds(20).build();
    }

    private static JsonNode file(JsonNode report, String path) {
        for (JsonNode file : report.path("files")) {
            if (file.path("file").asText().equals(path)) {
                return file;
            }
        }
        throw new AssertionError(path + " is not in " + report.path("files"));
    }

    private static List<Integer> ints(JsonNode array) {
        List<Integer> values = new ArrayList<>();
        array.forEach(value -> values.add(value.asInt()));
        return values;
    }

    @Test
    void theChangedLinesTheCasesRunAreToldFromThoseNoCaseRunsAndAChildProcessCounts() throws Exception {
        SandboxAvailability.assumeAvailable();
        Path cases = project.cases("cases.jsonl", "scale-2 scale 2", "scale-5 scale 5", "fork-3 fork 3");
        GoalSettings settings = project.settings("report", SandboxSpec.Mode.REQUIRED);
        RecordingLog log = new RecordingLog();
        GoalResult result = PatchCoverageGoal.grade(options(settings, cases, 0, 2), log);

        assertThat(result.error()).isNull();
        assertThat(result.failed()).isFalse();
        JsonNode report = JsonReports.MAPPER.readTree(settings.jsonReport().toFile());
        assertThat(report.path("goal").asText()).isEqualTo("patch-coverage");
        assertThat(report.path("verdict").asText()).isEqualTo("pass");
        assertThat(report.path("sandbox").path("mode").asText()).isEqualTo("namespaces");
        assertThat(report.path("cases").asLong()).isEqualTo(3);
        JsonNode calc = file(report, "src/calc.c");
        TreeSet<Integer> run = project.marked("src/calc.c", "R");
        TreeSet<Integer> never = project.marked("src/calc.c", "N");
        assertThat(ints(calc.path("run_lines"))).containsExactlyElementsOf(run);
        assertThat(ints(calc.path("not_run_lines"))).containsExactlyElementsOf(never);
        assertThat(calc.path("not_run_ranges").asText()).isEqualTo(LineRanges.format(never));
        assertThat(calc.path("verdict").asText()).isEqualTo("pass");
        // Which cases ran each line, in the cases file's order; forked() ran in the fork case's child only.
        for (JsonNode line : calc.path("lines")) {
            int number = line.path("line").asInt();
            List<String> first = new ArrayList<>();
            line.path("first_cases").forEach(c -> first.add(c.asText()));
            int forked = run.last();
            if (number == forked) {
                assertThat(first).containsExactly("fork-3");
                assertThat(line.path("count").asLong()).isEqualTo(1);
            } else if (run.contains(number)) {
                assertThat(first).containsExactly("scale-2", "scale-5");
                assertThat(line.path("count").asLong()).isEqualTo(2);
            } else {
                assertThat(first).isEmpty();
                assertThat(line.path("count").asLong()).isZero();
            }
        }
        // The header's inline helper is a changed line of its own file, run by the scale cases.
        JsonNode header = file(report, "src/calc.h");
        assertThat(ints(header.path("run_lines"))).containsExactlyElementsOf(project.marked("src/calc.h", "R"));
        // A changed file no object was compiled from is not measured, and says so.
        JsonNode unbuilt = file(report, "tools/unbuilt.c");
        assertThat(unbuilt.path("verdict").asText()).isEqualTo("not_measured");
        assertThat(ints(unbuilt.path("executable_lines"))).isEmpty();
        // The diff is in the report, each added line marked.
        List<String> statuses = new ArrayList<>();
        calc.path("hunks").forEach(h -> h.path("lines").forEach(l -> statuses.add(l.path("kind").asText() + l.path("status").asText(""))));
        assertThat(statuses).contains("+run", "+not_run", "-");

        String xml = Files.readString(settings.xmlReport());
        assertThat(xml).contains("name=\"src/calc.c\"", "name=\"src/calc.h\"", "name=\"tools/unbuilt.c\"", "<skipped message=\"not measured");
        assertThat(xml).doesNotContain("<failure");
        // The page shows the diff with each changed line marked, without script or inline style (CSP-safe).
        String page = Files.readString(settings.reportsDirectory().resolve("index.html"));
        assertThat(page).contains("patch-coverage.report", "<table class=\"diff\">", "<tr class=\"notrun\">", "NOT RUN", "<tr class=\"run\">",
                "<tr class=\"removed\">", "return 100; /*N*/", "gcov knows no line of it");
        assertThat(page).doesNotContain("<script", " style=", "<style");
        assertThat(dev.patchgrade.core.grade.ModuleCheck.read(settings.reportsDirectory(), null).executions())
                .anySatisfy(e -> assertThat(e.detail()).isEqualTo("0 of 3 file(s) failing"));
        assertThat(String.join("\n", log.lines)).contains("patch coverage: " + (run.size() + 1) + " of " + (run.size() + never.size() + 1)
                + " changed executable line(s) run");
    }

    @Test
    void withMinimumPercent100AFileWithALineNeverRunFailsNamingTheLines() throws Exception {
        SandboxAvailability.assumeAvailable();
        Path cases = project.cases("gate.jsonl", "scale-2 scale 2", "fork-3 fork 3");
        GoalSettings settings = project.settings("gate", SandboxSpec.Mode.REQUIRED);
        GoalResult result = PatchCoverageGoal.grade(options(settings, cases, 100, 2), new RecordingLog());

        assertThat(result.error()).isNull();
        assertThat(result.failed()).isTrue();
        assertThat(result.worst()).isEqualTo("lines_not_run");
        String never = LineRanges.format(project.marked("src/calc.c", "N"));
        assertThat(result.failures()).singleElement().asString().startsWith("src/calc.c: ").endsWith("< minimumPercent 100; never run: " + never);
        String xml = Files.readString(settings.xmlReport());
        assertThat(xml).contains("<failure message=\"").contains("type=\"lines_not_run\"").contains("never run: " + never);
        JsonNode report = JsonReports.MAPPER.readTree(settings.jsonReport().toFile());
        assertThat(report.path("verdict").asText()).isEqualTo("fail");
        assertThat(file(report, "src/calc.c").path("verdict").asText()).isEqualTo("fail");
        assertThat(file(report, "src/calc.h").path("verdict").asText()).isEqualTo("pass");
        dev.patchgrade.core.grade.ModuleCheck.Execution gate = dev.patchgrade.core.grade.ModuleCheck.read(settings.reportsDirectory(), null)
                .executions().stream().filter(e -> e.name().equals("patch-coverage.gate")).findFirst().orElseThrow();
        assertThat(gate.status()).isEqualTo(dev.patchgrade.core.report.ExecutionSummary.Status.FAILED);
        assertThat(gate.outcome()).isEqualTo("lines_not_run");
        assertThat(gate.detail()).isEqualTo("1 of 3 file(s) failing");
    }

    @Test
    void aPatchThatChangesNoCLineIsOneSkippedCaseNamingTheBaseAndNoFiles() throws Exception {
        Path cases = project.cases("none.jsonl", "scale-2 scale 2");
        GoalSettings settings = project.settings("none", SandboxSpec.Mode.OFF);
        RecordingLog log = new RecordingLog();
        PatchCoverageGoal.Options options = PatchCoverageGoal.Options.builder(settings).cases(cases).command(List.of(project.binary.toString()))
                .base("HEAD").minimumPercent(100).timeoutSeconds(20).build();
        GoalResult result = PatchCoverageGoal.grade(options, log);

        assertThat(result.error()).isNull();
        assertThat(result.failed()).isFalse();
        assertThat(result.worst()).isEqualTo("pass");
        String xml = Files.readString(settings.xmlReport());
        assertThat(xml).contains("tests=\"1\"", "skipped=\"1\"", "name=\"(no C/C++ changes)\"", "<skipped message=\"git diff HEAD changes no line of a "
                + "C or C++ file under " + project.root.toRealPath() + ": nothing to measure\"");
        JsonNode report = JsonReports.MAPPER.readTree(settings.jsonReport().toFile());
        assertThat(report.path("files")).isEmpty();
        assertThat(report.path("changed_files").asInt()).isZero();
        assertThat(report.path("percent").isNull()).isTrue();
        assertThat(report.path("verdict").asText()).isEqualTo("pass");
        // No table and no totals line where nothing was measured.
        assertThat(log.lines).noneMatch(l -> l.contains("patch coverage: "));
    }

    @Test
    void casesRunInParallelMergeToTheCountsOfOneAtATime() throws Exception {
        SandboxAvailability.assumeAvailable();
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            many.add(switch (i % 3) {
                case 0 -> "s" + i + " scale " + i;
                case 1 -> "c" + i + " clamp " + (i * 10);
                default -> "f" + i + " fork " + i;
            });
        }
        Path cases = project.cases("many.jsonl", many.toArray(String[]::new));
        GoalSettings serial = project.settings("serial", SandboxSpec.Mode.REQUIRED);
        GoalSettings parallel = project.settings("parallel", SandboxSpec.Mode.REQUIRED);
        assertThat(PatchCoverageGoal.grade(options(serial, cases, 100, 1), new RecordingLog()).failed()).isFalse();
        assertThat(PatchCoverageGoal.grade(options(parallel, cases, 100, 4), new RecordingLog()).failed()).isFalse();

        JsonNode one = JsonReports.MAPPER.readTree(serial.jsonReport().toFile()).path("files");
        JsonNode four = JsonReports.MAPPER.readTree(parallel.jsonReport().toFile()).path("files");
        assertThat(four).isEqualTo(one);
        JsonNode calc = file(JsonReports.MAPPER.readTree(parallel.jsonReport().toFile()), "src/calc.c");
        int forked = project.marked("src/calc.c", "R").last();
        List<Integer> clamped = new ArrayList<>(project.marked("src/calc.c", "N"));
        for (JsonNode line : calc.path("lines")) {
            int number = line.path("line").asInt();
            // Each kind of case is 8 of the 24 and runs its function once; of the clamp cases (10 to 220), 4 are above 100.
            long expected = number == clamped.get(1) || number == clamped.get(2) ? 4 : 8;
            assertThat(line.path("cases").asLong()).as("line " + number).isEqualTo(expected);
            assertThat(line.path("count").asLong()).as("line " + number).isEqualTo(expected);
            if (number == forked) {
                assertThat(line.path("first_cases").get(0).asText()).isEqualTo("f2");
            }
        }
    }

    @Test
    void noDataGoesIntoTheSourceTreeOrBesideTheObjects() throws Exception {
        Path cases = project.cases("tree.jsonl", "scale-2 scale 2", "fork-3 fork 3");
        GoalSettings settings = project.settings("tree", SandboxSpec.Mode.OFF);
        assertThat(PatchCoverageGoal.grade(options(settings, cases, 0, 2), new RecordingLog()).error()).isNull();
        try (Stream<Path> files = Files.walk(project.root)) {
            assertThat(files.filter(p -> p.toString().endsWith(".gcda") || p.toString().endsWith(".gcov") || p.toString().endsWith(".gcov.json.gz"))
                    .toList()).isEmpty();
        }
        assertThat(settings.outputDirectory().resolve("coverage/tree")).doesNotExist();
    }

    @Test
    void aThreeColumnCasesFileRunsItsCasesWithoutTheGoldenReachingThem() throws Exception {
        Path cases = project.root.resolve("src/test/patchgrade/rows.jsonl");
        Files.writeString(cases, "{\"id\": \"clamp-500\", \"args\": [\"clamp\", \"500\"], \"golden\": \"100\", \"expect_exit\": 0}\n");
        GoalSettings settings = project.settings("rows", SandboxSpec.Mode.OFF);
        GoalResult result = PatchCoverageGoal.grade(options(settings, cases, 0, 1), new RecordingLog());
        assertThat(result.error()).isNull();
        JsonNode calc = file(JsonReports.MAPPER.readTree(settings.jsonReport().toFile()), "src/calc.c");
        List<Integer> clamped = new ArrayList<>(project.marked("src/calc.c", "N"));
        assertThat(ints(calc.path("run_lines"))).containsExactly(clamped.get(0), clamped.get(1));
    }
}
