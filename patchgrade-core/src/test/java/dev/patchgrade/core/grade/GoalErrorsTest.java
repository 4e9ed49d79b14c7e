package dev.patchgrade.core.grade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.Fixtures;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.classify.Comparison;
import dev.patchgrade.core.classify.ThreeColumnGoal;
import dev.patchgrade.core.digest.DigestGoal;
import dev.patchgrade.core.digest.DigestTuple;
import dev.patchgrade.core.digest.GoldWriter;
import dev.patchgrade.core.digest.Sanitizer;
import dev.patchgrade.core.digest.TimeBuckets;
import dev.patchgrade.core.envelope.EnvelopeGoal;
import dev.patchgrade.core.envelope.HostCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Setup problems end each goal in one error that names the file, the place and the fix, and still
 * leave both reports, with no oracle written.
 */
class GoalErrorsTest {
    /** One bucket below a minute: these tests are about other fields, and a loaded CI machine must not move them. */
    private static final String WIDE_BUCKET = "60000";

    @TempDir
    Path dir;
    private GoalSettings settings;

    @BeforeEach
    void settings() {
        settings = new GoalSettings("digest", "errors", dir.resolve("reports"), dir.resolve("out"), dir, Map.of());
    }

    private GoalSettings settings(String goal) {
        return new GoalSettings(goal, "errors", dir.resolve("reports"), dir.resolve("out"), dir, Map.of());
    }

    private DigestGoal.Options digest(Path cases, Path gold, List<String> command, String compiler) {
        return DigestGoal.Options.builder(settings)
                .cases(cases)
                .gold(gold)
                .command(command)
                .timeoutSeconds(5)
                .buckets(TimeBuckets.parse(WIDE_BUCKET))
                .timeBucketReruns(3)
                .compiler(compiler)
                .parallel(2)
                .build();
    }

    private void assertReportsNameTheError(GoalSettings s, String type) throws Exception {
        assertThat(Files.readString(s.xmlReport())).contains("<error message=").contains("type=\"" + type + "\"");
        assertThat(Files.readString(s.jsonReport())).contains("\"type\" : \"" + type + "\"");
    }

    @Test
    void aMissingBinaryIsCouldNotStartNamingTheCommand() throws Exception {
        Path cases = Files.writeString(dir.resolve("cases.txt"), "1\n");
        GoldWriter.replace(dir.resolve("gold"), List.of(new DigestTuple("1", 0, null, null, dev.patchgrade.core.digest.SanitizerClass.CLEAN, dev.patchgrade.core.digest.Buckets.label("lt_60s"))), null, List.of());
        GoalResult result = DigestGoal.grade(digest(cases, dir.resolve("gold"), List.of(dir.resolve("bin/missing").toString()), null),
                GradeLog.SILENT);
        assertThat(result.error().errorName()).isEqualTo("could_not_start");
        assertThat(result.error().getMessage()).contains("bin/missing: not found").contains("build the binary before this goal runs");
        assertReportsNameTheError(settings, "could_not_start");
    }

    @Test
    void aDifferentCompilerIsToolchainDriftBeforeAnyCaseRuns() throws Exception {
        Path cases = Files.writeString(dir.resolve("cases.txt"), "1\n");
        GoldWriter.replace(dir.resolve("gold"), List.of(new DigestTuple("1", 0, null, null, dev.patchgrade.core.digest.SanitizerClass.CLEAN, dev.patchgrade.core.digest.Buckets.label("lt_60s"))), "g++ (Imaginary) 1.0", List.of());
        GoalResult result = DigestGoal.grade(digest(cases, dir.resolve("gold"), List.of(Fixtures.command("crash"), "exit:0"), "g++"),
                GradeLog.SILENT);
        assertThat(result.error().errorName()).isEqualTo("toolchain_drift");
        assertThat(result.error().getMessage()).contains("recorded with \"g++ (Imaginary) 1.0\"").contains("nothing was graded");
        assertThat(dir.resolve("out/cand")).doesNotExist();
    }

    @ParameterizedTest
    @ValueSource(strings = {"auto", "auto, user namespaces refused"})
    void aGradeThatFailsReadingItsOraclesLeavesNoHelperRunningAndSaysNoChildRan(String how) throws Exception {
        // The helper starts while the gold is read: a gold that fails the read must still see it stopped, and the
        // report and the log must say what they said when nothing was started before the gold was read.
        if (how.contains("refused")) {
            System.setProperty("patchgrade.sandbox.denyUserns", "true");
        }
        List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
        GradeLog log = new GradeLog() {
            @Override
            public void info(String message) {}

            @Override
            public void warn(String message) {
                warnings.add(message);
            }

            @Override
            public void debug(String message) {}
        };
        try {
            Path cases = Files.writeString(dir.resolve("cases.txt"), "1\n");
            Path gold = Files.createDirectories(dir.resolve("gold"));
            Files.writeString(gold.resolve("1.json"), "{\"case\": \"1\", \"exit\": ");
            GoalSettings auto = settings.withSandbox(SandboxSettings.auto());
            DigestGoal.Options options = DigestGoal.Options.builder(auto).cases(cases).gold(gold)
                    .command(List.of(Fixtures.command("crash"), "exit:0")).timeoutSeconds(5).buckets(TimeBuckets.parse(WIDE_BUCKET)).build();
            GoalResult result = DigestGoal.grade(options, log);
            assertThat(result.error().errorName()).isEqualTo("malformed_gold");
            assertReportsNameTheError(auto, "malformed_gold");
            assertThat(Files.readString(auto.jsonReport())).contains("\"reason\" : \"no child was started\"").contains("\"tamper_proof\" : false");
            assertThat(warnings).as("warnings about a sandbox no child ran in").noneMatch(w -> w.contains("WITHOUT the sandbox"));
        } finally {
            System.clearProperty("patchgrade.sandbox.denyUserns");
        }
        assertThat(ProcessHandle.current().children().filter(p -> p.info().command().orElse("").contains("pg-launch-helper")).toList())
                .as("helpers still running after the grade returned").isEmpty();
    }

    @Test
    void recordDigestRefusesAnExistingGoldAndLeavesItAlone() throws Exception {
        Path cases = Files.writeString(dir.resolve("cases.txt"), "1\n");
        Path gold = Files.createDirectories(dir.resolve("gold"));
        Path file = Files.writeString(gold.resolve("hand.json"), "{\"hand\": true}");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> DigestGoal.record(digest(cases, gold, List.of(Fixtures.command("crash"), "exit:0"), null), GradeLog.SILENT))
                .isInstanceOf(dev.patchgrade.core.PatchgradeException.class)
                .hasMessageContaining(gold.toString()).hasMessageContaining("with force=true")
                .extracting(e -> ((dev.patchgrade.core.PatchgradeException) e).errorName()).isEqualTo("refused_overwrite");
        assertThat(Files.readString(file)).isEqualTo("{\"hand\": true}");
        assertThat(gold.toFile().list()).containsExactly("hand.json");
    }

    @Test
    void aMalformedEnvelopeNamesTheKeyAndValue() throws Exception {
        GoalSettings s = settings("envelope");
        Path envelope = Files.writeString(dir.resolve("envelope.json"), "{\"timeout_s\": 5, \"max_rss_kb\": \"8M\", \"max_user_us\": 1}");
        GoalResult result = EnvelopeGoal.grade(EnvelopeGoal.grading(s)
                .envelope(envelope)
                .command(List.of(Fixtures.command("crash")))
                .hostCheck(HostCheck.FAIL)
                .build(), GradeLog.SILENT);
        assertThat(result.error().getMessage()).isEqualTo(envelope + ": key \"max_rss_kb\" must be a non-negative whole number (KB) (found \"8M\")");
        assertReportsNameTheError(s, "malformed_envelope");
    }

    @Test
    void aDirectoryAsBinaryIsNotExecutable() throws Exception {
        GoalSettings s = settings("envelope");
        Path envelope = Files.writeString(dir.resolve("envelope.json"), "{\"timeout_s\": 5, \"max_rss_kb\": 100000, \"max_user_us\": 1000000}");
        GoalResult result = EnvelopeGoal.grade(EnvelopeGoal.grading(s)
                .envelope(envelope)
                .command(List.of(dir.toString()))
                .hostCheck(HostCheck.FAIL)
                .build(), GradeLog.SILENT);
        assertThat(result.error().errorName()).isEqualTo("could_not_start");
        assertThat(result.error().getMessage()).contains("not executable (it is a directory)");
    }

    @Test
    void aMissingSidecarIsReferenceIdentityDriftAndNothingRuns() throws Exception {
        GoalSettings s = settings("three-column");
        Path cases = Files.writeString(dir.resolve("cases.jsonl"), "{\"id\":\"a\",\"args\":[\"exit:0\"],\"golden\":\"\"}\n");
        GoalResult result = ThreeColumnGoal.grade(ThreeColumnGoal.builder(s)
                .cases(cases)
                .reference(List.of(Fixtures.command("crash")))
                .candidate(List.of(Fixtures.command("crash")))
                .referenceDigest(dir.resolve("reference.sha256"))
                .comparison(Comparison.parse("trim"))
                .timeoutSeconds(5)
                .parallel(1)
                .build(), GradeLog.SILENT);
        assertThat(result.error().errorName()).isEqualTo("reference_identity_drift");
        assertThat(result.error().getMessage()).contains("no reference sidecar at " + dir.resolve("reference.sha256"))
                .containsPattern("sha256 [0-9a-f]{64}").contains("freeze-reference");
        assertThat(s.streamsDirectory()).doesNotExist();
        assertReportsNameTheError(s, "reference_identity_drift");
    }

    @Test
    void goldRecordedUnderOtherNormalizeRulesIsNotCompared() throws Exception {
        Path cases = Files.writeString(dir.resolve("cases.txt"), "exit:0\n");
        List<dev.patchgrade.core.digest.NormalizeRule> rules = List.of(new dev.patchgrade.core.digest.NormalizeRule("0x[0-9a-f]+", "0xADDR"));
        DigestGoal.Options recording = DigestGoal.Options.builder(settings)
                .cases(cases)
                .gold(dir.resolve("gold"))
                .command(List.of(Fixtures.command("crash")))
                .timeoutSeconds(5)
                .buckets(TimeBuckets.parse(WIDE_BUCKET))
                .timeBucketReruns(0)
                .normalize(rules)
                .parallel(1)
                .build();
        DigestGoal.record(recording, GradeLog.SILENT);
        assertThat(DigestGoal.grade(recording, GradeLog.SILENT).failures()).isEmpty();
        GoalResult unfiltered = DigestGoal.grade(digest(cases, dir.resolve("gold"), List.of(Fixtures.command("crash")), null), GradeLog.SILENT);
        assertThat(unfiltered.error().errorName()).isEqualTo("normalize_drift");
        assertThat(unfiltered.error().getMessage()).contains("recorded with normalize rules [0x[0-9a-f]+ -> 0xADDR] but this execution has (none)");
    }
}
