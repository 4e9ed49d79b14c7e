package dev.patchgrade.core.grade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.patchgrade.core.Fixtures;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.classify.Comparison;
import dev.patchgrade.core.classify.ThreeColumnGoal;
import dev.patchgrade.core.digest.DigestGoal;
import dev.patchgrade.core.digest.DigestTuple;
import dev.patchgrade.core.digest.NormalizeRule;
import dev.patchgrade.core.digest.Sanitizer;
import dev.patchgrade.core.digest.TimeBuckets;
import dev.patchgrade.core.launch.SandboxSpec;
import dev.patchgrade.core.report.JsonReports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a real project needs from the goals: per-case settings, drifts a person can read, output that
 * names the checkout, and a console that lists what failed. Runs the case_probe fixture.
 */
class RealProjectTest {
    /** One bucket below a minute: a loaded CI machine must not move the time bucket. */
    private static final String WIDE_BUCKET = "60000";

    @TempDir
    Path dir;

    /** Every line a goal logs, with its level. */
    static final class Captured implements GradeLog {
        final List<String> info = new ArrayList<>();
        final List<String> warnings = new ArrayList<>();
        final boolean verbose;

        Captured(boolean verbose) {
            this.verbose = verbose;
        }

        @Override
        public void info(String message) {
            info.add(message);
        }

        @Override
        public void warn(String message) {
            warnings.add(message);
        }

        @Override
        public void debug(String message) {}

        @Override
        public boolean verbose() {
            return verbose;
        }

        String console() {
            return String.join("\n", info);
        }
    }

    private GoalSettings settings(String goal, Path project, Map<String, String> environment) {
        return new GoalSettings(goal, "lua", project.resolve("target/reports"), project.resolve("target/patchgrade"), project, environment)
                .withSandbox(new SandboxSettings(SandboxSpec.Mode.AUTO, List.of(), project, List.of(), List.of(), List.of()));
    }

    private DigestGoal.Options digest(GoalSettings settings, Path project, List<String> command, int timeout, List<NormalizeRule> normalize, boolean force) {
        return DigestGoal.Options.builder(settings)
                .cases(project.resolve("cases.jsonl"))
                .gold(project.resolve("gold"))
                .command(command)
                .timeoutSeconds(timeout)
                .buckets(TimeBuckets.parse(WIDE_BUCKET))
                .timeBucketReruns(0)
                .normalize(normalize)
                .parallel(2)
                .force(force)
                .build();
    }

    private static JsonNode json(Path file) throws Exception {
        return JsonReports.MAPPER.readTree(file.toFile());
    }

    @Test
    void aDriftingStreamIsShownAsItsFirstDifferingLineAndTheEmptyStreamIsNamed() throws Exception {
        Files.writeString(dir.resolve("cases.jsonl"), "{\"id\":\"long\",\"args\":[\"first\",\"--long=120\"]}\n{\"id\":\"quiet\",\"args\":[\"ok\"]}\n");
        String probe = Fixtures.command("case_probe");
        DigestGoal.record(digest(settings("record-digest", dir, Map.of()), dir, List.of(probe), 5, List.of(), false), GradeLog.SILENT);
        JsonNode gold = json(dir.resolve("gold/long.json"));
        assertThat(gold.path("stdout_excerpt").asText()).isEqualTo("arg=first\n" + "x".repeat(120) + "\n");
        assertThat(gold.path("stderr_excerpt").asText()).isEmpty();

        Captured log = new Captured(false);
        GoalSettings grading = settings("digest", dir, Map.of("PROBE_LAST", "b"));
        GoalResult result = DigestGoal.grade(digest(grading, dir, List.of(probe, "--stderr=WARN: rounding late"), 5, List.of(), false), log);

        String stdoutLine = "stdout line 2: gold <..." + "x".repeat(60) + "> | candidate <..." + "x".repeat(59) + "b>";
        String stderrLine = "stderr line 1: gold (empty stream) | candidate <WARN: rounding late>";
        assertThat(result.failures()).hasSize(2);
        assertThat(result.failures().get(0)).contains("stderr_sha256: " + DigestTuple.EMPTY_SHA256 + " (empty) -> ")
                .contains(stdoutLine).contains(stderrLine);
        assertThat(log.console()).contains(stdoutLine).contains(stderrLine).contains("stderr_sha256: e3b0c44298fc (empty) -> ");
        String xml = Files.readString(grading.xmlReport());
        assertThat(xml).contains("stderr line 1: gold (empty stream) | candidate &lt;WARN: rounding late&gt;")
                .contains("\ncandidate: exit 0; stderr ends with:\n    WARN: rounding late\n");
        JsonNode report = json(grading.jsonReport());
        assertThat(report.at("/cases/0/first_difference/0/line").asInt()).isEqualTo(2);
        assertThat(report.at("/cases/0/first_difference/0/gold").asText()).isEqualTo("x".repeat(120));
        assertThat(report.at("/cases/1/first_difference/0/text").asText()).isEqualTo(stderrLine);
        assertThat(Files.readString(grading.reportsDirectory().resolve("index.html")))
                .contains("stderr line 1: gold (empty stream) | candidate &lt;WARN: rounding late&gt;").contains("e3b0c44298fc (empty)");
        assertThat(log.info).anyMatch(line -> line.equals("digest lua: cases " + dir.resolve("cases.jsonl") + ", gold " + dir.resolve("gold")));
        assertThat(result.failures().get(0)).doesNotContain("re-record");
    }

    @Test
    void theConsoleListsPassingCasesOnlyWhenAskedTo() throws Exception {
        Files.writeString(dir.resolve("cases.jsonl"), "{\"id\":\"one\",\"args\":[\"1\"]}\n{\"id\":\"two\",\"args\":[\"2\"]}\n");
        List<String> command = List.of(Fixtures.command("case_probe"));
        DigestGoal.record(digest(settings("record-digest", dir, Map.of()), dir, command, 5, List.of(), false), GradeLog.SILENT);
        Captured quiet = new Captured(false);
        DigestGoal.grade(digest(settings("digest", dir, Map.of()), dir, command, 5, List.of(), false), quiet);
        assertThat(quiet.info).noneMatch(line -> line.startsWith("one ")).contains(
                "2 more case(s) not listed (2 passed; list every case with verbose=true)", "outcome: PASS, every channel matched");
        Captured verbose = new Captured(true);
        DigestGoal.grade(digest(settings("digest", dir, Map.of()), dir, command, 5, List.of(), false), verbose);
        assertThat(verbose.info).anyMatch(line -> line.matches("one +pass *")).anyMatch(line -> line.matches("two +pass *"));
    }

    @Test
    void aCaseGetsItsOwnDirectoryEnvironmentAndTimeout() throws Exception {
        Files.createDirectories(dir.resolve("tests/lib"));
        Files.writeString(dir.resolve("cases.jsonl"), String.join("\n",
                "{\"id\":\"in-tests\",\"args\":[\"--cwd\"],\"cwd\":\"tests/lib\",\"env\":{\"PROBE\":\"from-case\"}}",
                "{\"id\":\"slow-allowed\",\"args\":[\"--sleep-ms=3500\"],\"timeout_s\":60}",
                "{\"id\":\"slow-default\",\"args\":[\"--sleep-ms=3500\"]}",
                "{\"id\":\"plain\",\"args\":[\"--cwd\"]}", ""));
        Captured log = new Captured(false);
        List<DigestTuple> tuples = DigestGoal.record(digest(settings("record-digest", dir, Map.of("PROBE", "from-pom")), dir,
                List.of(Fixtures.command("case_probe")), 3, List.of(NormalizeRule.basedir(dir)), false), log).first();
        assertThat(json(dir.resolve("gold/in-tests.json")).path("stdout_excerpt").asText()).isEqualTo("cwd=${basedir}/tests/lib\nPROBE=from-case\n");
        assertThat(json(dir.resolve("gold/plain.json")).path("stdout_excerpt").asText()).isEqualTo("cwd=${basedir}\nPROBE=from-pom\n");
        assertThat(tuples).filteredOn(t -> t.caseId().equals("slow-allowed")).extracting(DigestTuple::sanitizer).containsExactly(dev.patchgrade.core.digest.SanitizerClass.CLEAN);
        assertThat(tuples).filteredOn(t -> t.caseId().equals("slow-default")).extracting(DigestTuple::sanitizer).containsExactly(dev.patchgrade.core.digest.SanitizerClass.TIMEOUT);
        assertThat(log.warnings).containsExactly("1 of 4 case(s) were recorded with a sanitizer class other than clean: slow-default (timeout). "
                + "The gold now expects exactly these outcomes: make sure the known-good build really behaves this way (a sanitizer report in "
                + "a known-good build is usually a bug to fix, or a case to drop, before recording)");
    }

    @Test
    void goldFromCasesThatMostlyFailedIsRefusedWithTheirStderrAndKeptOnlyWithForce() throws Exception {
        Files.writeString(dir.resolve("cases.jsonl"), String.join("\n",
                "{\"id\":\"parse\",\"args\":[\"--stderr=Failed to create 'input' actual file\",\"--exit=2\"]}",
                "{\"id\":\"quiet\",\"args\":[]}",
                "{\"id\":\"ok\",\"args\":[\"fine\"]}",
                "{\"id\":\"write\",\"args\":[\"--stderr=line one\",\"--stderr=Failed to write\",\"--exit=2\"]}", ""));
        String probe = Fixtures.command("case_probe");
        assertThatThrownBy(() -> DigestGoal.record(digest(settings("record-digest", dir, Map.of()), dir, List.of(probe), 5, List.of(), false),
                GradeLog.SILENT))
                .isInstanceOf(PatchgradeException.class)
                .hasMessage("3 of 4 case(s) did not run cleanly on the known-good command " + probe + " (a non-zero exit, a signal, a timeout, "
                        + "or no output at all): parse (exit 2; stderr ends with:\n    Failed to create 'input' actual file); quiet (exit 0, "
                        + "printed nothing on stdout or stderr); write (exit 2; stderr ends with:\n    line one\n    Failed to write).\n"
                        + "A gold recorded from these runs expects exactly these failures, so a candidate that fails the same way passes. "
                        + "Nothing was written. Fix the command or the cases (a hint above says when the sandbox refused a path), or, if these "
                        + "outcomes are the known-good behaviour, record them with force=true: `run record-digest for execution lua with force=true`");
        assertThat(dir.resolve("gold")).doesNotExist();

        Captured forced = new Captured(false);
        DigestGoal.record(digest(settings("record-digest", dir, Map.of()), dir, List.of(probe), 5, List.of(), true), forced);
        assertThat(forced.warnings).singleElement().asString().startsWith("3 of 4 case(s) did not run cleanly")
                .endsWith("They were recorded because force=true is set: make sure these outcomes are the known-good behaviour");
        assertThat(dir.resolve("gold/parse.json")).exists();
    }

    @Test
    void aMissingCaseDirectoryIsAnErrorNamingTheCase() throws Exception {
        Files.writeString(dir.resolve("cases.jsonl"), "{\"id\":\"lost\",\"args\":[],\"cwd\":\"no/such\"}\n");
        assertThatThrownBy(() -> DigestGoal.record(digest(settings("record-digest", dir, Map.of()), dir, List.of(Fixtures.command("case_probe")),
                5, List.of(), false), GradeLog.SILENT))
                .hasMessage("case \"lost\" (line 1): key \"cwd\" is \"no/such\", but " + dir.resolve("no/such") + " is not a directory; create it, "
                        + "or fix \"cwd\" (it is relative to the workingDirectory setting, " + dir + ")");
    }

    @Test
    void outputNamingTheCheckoutIsWarnedAboutAndTheBasedirRuleMakesTheGoldMove() throws Exception {
        Files.writeString(dir.resolve("cases.jsonl"), "{\"id\":\"where\",\"args\":[\"--cwd\"]}\n{\"id\":\"elsewhere\",\"args\":[\"x\"]}\n");
        List<String> command = List.of(Fixtures.command("case_probe"));
        Captured raw = new Captured(false);
        DigestGoal.record(digest(settings("record-digest", dir, Map.of()), dir, command, 5, List.of(), false), raw);
        assertThat(raw.warnings).containsExactly("the recorded output of 1 case(s) contains the project's absolute path " + dir + ": where. "
                + "These digests will drift when the project is checked out elsewhere. Add the rule normalize.rule=basedir "
                + "(it writes ${basedir} in place of the path), or run the command with relative paths, then re-record with "
                + "`run record-digest for execution lua with force=true`");

        Captured ruled = new Captured(false);
        DigestGoal.record(digest(settings("record-digest", dir, Map.of()), dir, command, 5, List.of(NormalizeRule.basedir(dir)), true), ruled);
        assertThat(ruled.warnings).isEmpty();
        JsonNode gold = json(dir.resolve("gold/where.json"));
        assertThat(gold.path("normalize").toString()).isEqualTo("[{\"rule\":\"basedir\"}]");
        assertThat(gold.path("stdout_excerpt").asText()).isEqualTo("cwd=${basedir}\n");

        Path moved = Files.createDirectories(dir.resolve("moved/checkout"));
        Files.copy(dir.resolve("cases.jsonl"), moved.resolve("cases.jsonl"));
        Files.createDirectories(moved.resolve("gold"));
        for (String name : List.of("where.json", "elsewhere.json")) {
            Files.copy(dir.resolve("gold").resolve(name), moved.resolve("gold").resolve(name));
        }
        GoalResult result = DigestGoal.grade(digest(settings("digest", moved, Map.of()), moved, command, 5, List.of(NormalizeRule.basedir(moved)), false),
                GradeLog.SILENT);
        assertThat(result.failures()).isEmpty();
        assertThat(result.error()).isNull();
    }

    @Test
    void threeColumnExcerptsAreCentredOnTheDifferenceAndRowsMayExpectAnExit() throws Exception {
        String line = "summary: items=12 total=4711 average=392.58 median=301 max=1200 checksum=0x5f3a";
        Files.writeString(dir.resolve("rows.jsonl"), String.join("\n",
                "{\"id\":\"summary\",\"args\":[\"" + line + "\"],\"golden\":\"arg=" + line + "\"}",
                "{\"id\":\"usage-error\",\"args\":[\"--exit=2\",\"--stderr=usage: lua [options]\"],\"golden\":\"\",\"expect_exit\":2}",
                "{\"id\":\"unexpected-exit\",\"args\":[\"--exit=2\",\"--stderr=usage: lua [options]\"],\"golden\":\"\"}", ""));
        String probe = Fixtures.command("case_probe");
        GoalSettings settings = settings("three-column", dir, Map.of());
        ThreeColumnGoal.freeze(settings, List.of(probe), dir.resolve("reference.sha256"), false, GradeLog.SILENT);
        Captured log = new Captured(false);
        GoalResult result = ThreeColumnGoal.grade(ThreeColumnGoal.builder(settings)
                .cases(dir.resolve("rows.jsonl"))
                .reference(List.of(probe))
                .candidate(List.of(probe, "--bump-last"))
                .referenceDigest(dir.resolve("reference.sha256"))
                .comparison(Comparison.parse("trim"))
                .timeoutSeconds(5)
                .parallel(2)
                .build(), log);
        String shownGold = "<..." + ("arg=" + line).substring(("arg=" + line).length() - 60) + ">";
        String shownCandidate = shownGold.replace("0x5f3a>", "0x5f3b>");
        assertThat(result.failures()).containsExactly(
                "summary: candidate_regression (reference=" + shownGold + " candidate=" + shownCandidate + " golden=" + shownGold + ")",
                "unexpected-exit: nonzero_exit (reference exit 2, candidate exit 2; reference stderr: usage: lua [options]; "
                        + "candidate stderr: usage: lua [options])");
        String xml = Files.readString(settings.xmlReport());
        assertThat(xml).contains("message=\"nonzero_exit: reference exit 2, candidate exit 2; reference stderr: usage: lua [options]; candidate stderr: "
                + "usage: lua [options]\"")
                .contains("args: [--exit=2, --stderr=usage: lua [options]]\nreference: exit 2; stderr ends with:\n    usage: lua [options]\n"
                        + "candidate: exit 2; stderr ends with:\n    usage: lua [options]\n")
                .contains("candidate: exit 0; stderr was empty\n");
        assertThat(log.console()).contains("summary  ").contains("candidate=" + shownCandidate).doesNotContain("usage-error  pass_all_agree")
                .contains("1 more row(s) not listed; list every row with verbose=true");
        assertThat(log.info).anyMatch(l -> l.matches("pass_all_agree +1"));
        assertThat(Files.readString(settings.reportsDirectory().resolve("index.html"))).contains("0x5f3b");
    }

    private GoalResult threeColumn(GoalSettings settings, List<String> reference, List<String> candidate, String comparison) {
        return ThreeColumnGoal.grade(ThreeColumnGoal.builder(settings)
                .cases(dir.resolve("tests/rows.jsonl"))
                .reference(reference)
                .candidate(candidate)
                .referenceDigest(dir.resolve("reference.sha256"))
                .comparison(Comparison.parse(comparison))
                .timeoutSeconds(5)
                .parallel(2)
                .build(), GradeLog.SILENT);
    }

    @Test
    void aGoldenFileIsReadAsBytesBesideTheCasesFileAndHiddenFromBothPrograms() throws Exception {
        dev.patchgrade.core.SandboxAvailability.assumeAvailable();
        Files.createDirectories(dir.resolve("tests/expected"));
        Files.write(dir.resolve("tests/expected/crlf.out"), "arg=a\r\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        Files.writeString(dir.resolve("tests/expected/plain.out"), "arg=b\n");
        Files.writeString(dir.resolve("tests/expected/peek.out"), "arg=" + dir.resolve("tests/expected/peek.out") + "\n");
        Files.writeString(dir.resolve("tests/rows.jsonl"), String.join("\n",
                "{\"id\":\"crlf\",\"args\":[\"a\"],\"golden_file\":\"expected/crlf.out\"}",
                "{\"id\":\"plain\",\"args\":[\"b\"],\"golden_file\":\"expected/plain.out\"}",
                "{\"id\":\"peek\",\"args\":[\"" + dir.resolve("tests/expected/peek.out") + "\"],\"golden_file\":\"expected/peek.out\"}", ""));
        String probe = Fixtures.command("case_probe");
        GoalSettings settings = settings("three-column", dir, Map.of());
        ThreeColumnGoal.freeze(settings, List.of(probe), dir.resolve("reference.sha256"), false, GradeLog.SILENT);

        GoalResult result = threeColumn(settings, List.of(probe), List.of(probe), "exact");
        // The CR is the golden's own byte: the program prints LF only, so the row is golden rot, not a pass.
        assertThat(result.failures()).singleElement().asString().startsWith("crlf: golden_rot");
        // A candidate that prints the golden file it is handed cannot read it: it is hidden, as the cases file is.
        Files.writeString(dir.resolve("tests/rows.jsonl"), "{\"id\":\"peek\",\"args\":[\"" + dir.resolve("tests/expected/peek.out")
                + "\"],\"golden_file\":\"expected/peek.out\"}\n");
        assertThat(threeColumn(settings, List.of(probe), List.of("/bin/cat"), "exact").failures()).singleElement().asString()
                .startsWith("peek: nonzero_exit (reference exit 0, candidate exit 1; candidate stderr: /bin/cat: " + dir.resolve("tests/expected/peek.out"));

        Files.writeString(dir.resolve("tests/rows.jsonl"), "{\"id\":\"lost\",\"args\":[\"a\"],\"golden_file\":\"expected/none.out\"}\n");
        assertThat(threeColumn(settings, List.of(probe), List.of(probe), "exact").error()).hasMessage(dir.resolve("tests/rows.jsonl")
                + ":1: key \"golden_file\" is \"expected/none.out\", but " + dir.resolve("tests/expected/none.out") + " does not exist; create it, "
                + "or fix \"golden_file\" (it is relative to the cases file's directory, " + dir.resolve("tests/expected") + ")");
        Files.writeString(dir.resolve("tests/rows.jsonl"), "{\"id\":\"both\",\"args\":[\"a\"],\"golden\":\"arg=a\",\"golden_file\":\"expected/plain.out\"}\n");
        assertThat(threeColumn(settings, List.of(probe), List.of(probe), "exact").error()).hasMessageEndingWith(
                ":1: gives both \"golden\" and \"golden_file\"; keep one, since only one expected stdout can count");
    }

    @Test
    void emptyArgumentsAndEnvironmentValuesAreErrorsNamingTheParameter() {
        assertThatThrownBy(() -> ParameterValues.command("command", java.util.Arrays.asList("target/lua", null)))
                .isInstanceOf(PatchgradeException.class)
                .hasMessage("the command setting has an empty argument (argument 2 of 2); remove it, or give it a value: the build tool "
                        + "cannot pass an empty argument on");
        Map<String, String> environment = new HashMap<>();
        environment.put("LUA_PATH", null);
        assertThatThrownBy(() -> settings("digest", dir, environment))
                .isInstanceOf(PatchgradeException.class)
                .hasMessage("the environment setting gives variable LUA_PATH no value; give it one, as in environment.LUA_PATH=value, or "
                        + "remove it");
    }

    @Test
    void hintsCarryTheExecutionIdSoTheyRunAsPrinted() throws Exception {
        Files.writeString(dir.resolve("cases.jsonl"), "{\"id\":\"one\",\"args\":[\"1\"]}\n");
        List<String> command = List.of(Fixtures.command("case_probe"));
        DigestGoal.record(digest(settings("record-digest", dir, Map.of()), dir, command, 5, List.of(), false), GradeLog.SILENT);
        assertThatThrownBy(() -> DigestGoal.record(digest(settings("record-digest", dir, Map.of()), dir, command, 5, List.of(), false), GradeLog.SILENT))
                .hasMessageContaining("re-run as `run record-digest for execution lua with force=true`");
        Files.writeString(dir.resolve("cases.jsonl"), "{\"id\":\"one\",\"args\":[\"1\"]}\n{\"id\":\"two\",\"args\":[\"2\"]}\n");
        GoalResult drift = DigestGoal.grade(digest(settings("digest", dir, Map.of()), dir, command, 5, List.of(), false), GradeLog.SILENT);
        assertThat(drift.error().getMessage()).contains("`run record-digest for execution lua with force=true`");
    }

    @Test
    void asanAndUbsanTogetherIsOneSanitizerSetting() {
        assertThat(Sanitizer.parse("asan+ubsan")).isEqualTo(Sanitizer.ASAN_UBSAN);
        assertThat(Sanitizer.parse(" UBSAN+ASAN ")).isEqualTo(Sanitizer.ASAN_UBSAN);
        assertThat(Sanitizer.ASAN_UBSAN.wireName()).isEqualTo("asan+ubsan");
        assertThatThrownBy(() -> Sanitizer.parse("msan")).hasMessage("the sanitizer setting must be none, ubsan, asan or "
                + "asan+ubsan (found \"msan\"); give what the binary of the command setting was built with");
    }
}
