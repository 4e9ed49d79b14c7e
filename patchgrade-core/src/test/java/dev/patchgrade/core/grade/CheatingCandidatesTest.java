package dev.patchgrade.core.grade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.Fixtures;
import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.classify.Comparison;
import dev.patchgrade.core.classify.ThreeColumnGoal;
import dev.patchgrade.core.digest.DigestGoal;
import dev.patchgrade.core.digest.Sanitizer;
import dev.patchgrade.core.digest.DigestOptions;
import dev.patchgrade.core.digest.TimeBuckets;
import dev.patchgrade.core.envelope.EnvelopeGoal;
import dev.patchgrade.core.envelope.HostCheck;
import dev.patchgrade.core.launch.SandboxSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Candidates that get their answers from the grader instead of computing them. Each cheat is shown
 * to work with the sandbox off (so the test proves something) and to fail with it on.
 */
class CheatingCandidatesTest {
    private static final String GOLDEN = "secret-answer question";

    @TempDir
    Path dir;

    @org.junit.jupiter.api.BeforeEach
    void needsTheSandbox() {
        dev.patchgrade.core.SandboxAvailability.assumeAvailable();
    }

    private GoalSettings settings(String goal, String execution, SandboxSpec.Mode mode) {
        return new GoalSettings(goal, execution, dir.resolve("reports"), dir.resolve("out"), dir, Map.of())
                .withSandbox(SandboxSettings.auto().withMode(mode));
    }

    private ThreeColumnGoal.Options threeColumn(GoalSettings settings, Path reference, List<String> candidate) throws Exception {
        Path cases = dir.resolve("cases.jsonl");
        if (!Files.exists(cases)) {
            Files.writeString(cases, "{\"id\":\"q\",\"args\":[\"question\"],\"golden\":\"" + GOLDEN + "\"}\n");
        }
        Path sidecar = dir.resolve("reference.sha256");
        List<String> referenceCommand = List.of(reference.toString(), "secret-answer");
        if (!Files.exists(sidecar)) {
            ThreeColumnGoal.freeze(settings, referenceCommand, sidecar, false, GradeLog.SILENT);
        }
        return ThreeColumnGoal.builder(settings)
                .cases(cases)
                .reference(referenceCommand)
                .candidate(candidate)
                .referenceDigest(sidecar)
                .comparison(Comparison.parse("trim"))
                .timeoutSeconds(5)
                .parallel(1)
                .build();
    }

    private Path reference() throws Exception {
        return Files.copy(Path.of("/bin/echo"), dir.resolve("frozen_ref"), StandardCopyOption.COPY_ATTRIBUTES);
    }

    @Test
    void aCandidateReadingTheGoldenFromTheCasesFileFindsNothing() throws Exception {
        Path reference = reference();
        List<String> cheat = List.of("/bin/sh", "-c", "sed -n 's/.*\"golden\":\"\\([^\"]*\\)\".*/\\1/p' " + dir.resolve("cases.jsonl"), "sh");
        GoalResult open = ThreeColumnGoal.grade(threeColumn(settings("three-column", "open", SandboxSpec.Mode.OFF), reference, cheat), GradeLog.SILENT);
        assertThat(open.worst()).as("unsandboxed, the cheat works").isEqualTo("pass_all_agree");
        GoalResult sandboxed = ThreeColumnGoal.grade(threeColumn(settings("three-column", "boxed", SandboxSpec.Mode.REQUIRED), reference, cheat),
                GradeLog.SILENT);
        assertThat(sandboxed.worst()).isNotEqualTo("pass_all_agree");
    }

    @Test
    void aCandidateRunningTheReferenceCannotReachIt() throws Exception {
        Path reference = reference();
        List<String> cheat = List.of("/bin/sh", "-c", "exec " + reference + " secret-answer \"$@\"", "sh");
        GoalResult open = ThreeColumnGoal.grade(threeColumn(settings("three-column", "open", SandboxSpec.Mode.OFF), reference, cheat), GradeLog.SILENT);
        assertThat(open.worst()).isEqualTo("pass_all_agree");
        GoalResult sandboxed = ThreeColumnGoal.grade(threeColumn(settings("three-column", "boxed", SandboxSpec.Mode.REQUIRED), reference, cheat),
                GradeLog.SILENT);
        assertThat(sandboxed.worst()).isEqualTo("nonzero_exit");
    }

    private ThreeColumnGoal.Options threeColumn(GoalSettings settings, List<String> referenceCommand, List<String> candidate, String sidecarName)
            throws Exception {
        Path cases = dir.resolve("cases.jsonl");
        if (!Files.exists(cases)) {
            Files.writeString(cases, "{\"id\":\"q\",\"args\":[\"question\"],\"golden\":\"" + GOLDEN + "\"}\n");
        }
        Path sidecar = dir.resolve(sidecarName);
        if (!Files.exists(sidecar)) {
            ThreeColumnGoal.freeze(settings, referenceCommand, dir.resolve("frozen"), sidecar, false, GradeLog.SILENT);
        }
        return ThreeColumnGoal.builder(settings).cases(cases).reference(referenceCommand).candidate(candidate).referenceDigest(sidecar)
                .referenceHome(dir.resolve("frozen")).comparison(Comparison.parse("trim")).timeoutSeconds(5).parallel(1).build();
    }

    /**
     * A reference run by an interpreter is its home: its script is frozen with the interpreter and hidden from the
     * candidate, and the interpreter stays there for every candidate.
     */
    @Test
    void aCandidateCannotRunAnInterpretedReferencesScript() throws Exception {
        Path script = dir.resolve("frozen/ref.sh");
        Files.createDirectories(script.getParent());
        Files.writeString(script, "echo secret-answer \"$1\"\n");
        List<String> reference = List.of("/bin/sh", "frozen/ref.sh");
        // The cheat needs /bin/sh itself: it must still be there for a candidate.
        List<String> cheat = List.of("/bin/sh", "-c", "exec /bin/sh frozen/ref.sh \"$@\"", "sh");
        GoalResult open = ThreeColumnGoal.grade(threeColumn(settings("three-column", "open", SandboxSpec.Mode.OFF), reference, cheat, "open.sha256"),
                GradeLog.SILENT);
        assertThat(open.worst()).as("unsandboxed, the cheat works").isEqualTo("pass_all_agree");
        GoalResult sandboxed = ThreeColumnGoal.grade(threeColumn(settings("three-column", "boxed", SandboxSpec.Mode.REQUIRED), reference, cheat,
                "boxed.sha256"), GradeLog.SILENT);
        assertThat(sandboxed.worst()).as("the script is hidden, the shell is not").isEqualTo("nonzero_exit");
        assertThat(Files.readAllLines(dir.resolve("boxed.sha256"))).as("the script is frozen with the interpreter").hasSize(2)
                .last().asString().endsWith("frozen/ref.sh");
        Files.writeString(script, "echo another-answer \"$1\"\n");
        GoalResult changed = ThreeColumnGoal.grade(threeColumn(settings("three-column", "boxed", SandboxSpec.Mode.REQUIRED), reference, cheat,
                "boxed.sha256"), GradeLog.SILENT);
        assertThat(changed.error()).as("the script changed after freezing").isNotNull();
        assertThat(changed.error().error()).isEqualTo(ErrorName.REFERENCE_IDENTITY_DRIFT);
    }

    /** A library beside the reference ($ORIGIN rpath) stayed visible; a candidate dlopen'd it and passed. */
    @Test
    void aCandidateCannotReadWhatLiesBesideTheReference() throws Exception {
        Path reference = dir.resolve("frozen/bin/ref");
        Files.createDirectories(reference.getParent());
        Files.copy(Path.of("/bin/echo"), reference, StandardCopyOption.COPY_ATTRIBUTES);
        Files.writeString(reference.resolveSibling("libref.so"), "secret-answer");
        List<String> cheat = List.of("/bin/sh", "-c", "printf '%s %s\\n' \"$(cat " + reference.resolveSibling("libref.so") + ")\" \"$1\"", "sh");
        List<String> command = List.of(reference.toString(), "secret-answer");
        GoalResult open = ThreeColumnGoal.grade(threeColumn(settings("three-column", "open", SandboxSpec.Mode.OFF), command, cheat, "open.sha256"),
                GradeLog.SILENT);
        assertThat(open.worst()).as("unsandboxed, the cheat works").isEqualTo("pass_all_agree");
        GoalResult sandboxed = ThreeColumnGoal.grade(threeColumn(settings("three-column", "boxed", SandboxSpec.Mode.REQUIRED), command, cheat,
                "boxed.sha256"), GradeLog.SILENT);
        assertThat(sandboxed.worst()).isNotEqualTo("pass_all_agree");
    }

    private DigestGoal.Options digest(GoalSettings settings, List<String> command) throws Exception {
        Path cases = dir.resolve("cases.txt");
        if (!Files.exists(cases)) {
            Files.writeString(cases, "hello\n");
        }
        // One bucket for any time: the cheats are about output, and a time drift would only blur it.
        return DigestOptions.of(settings, cases, dir.resolve("gold"), command).buckets(TimeBuckets.parse("60000")).parallel(1).build();
    }

    @Test
    void aCandidateReplayingKeptStreamsFindsNone() throws Exception {
        DigestGoal.record(digest(settings("digest", "rec", SandboxSpec.Mode.REQUIRED), List.of("/bin/echo")), GradeLog.SILENT);
        // Recording keeps no streams; a grade with keepAll keeps every case's, where a later candidate could look.
        DigestGoal.grade(digest(settings("digest", "kept", SandboxSpec.Mode.REQUIRED), List.of("/bin/echo")).keepingAll(true), GradeLog.SILENT);
        Path recorded = dir.resolve("out/streams/digest/kept/hello.stdout");
        assertThat(recorded).hasContent("hello");
        List<String> replay = List.of("/bin/sh", "-c", "cat " + recorded, "sh");
        assertThat(DigestGoal.grade(digest(settings("digest", "open", SandboxSpec.Mode.OFF), replay), GradeLog.SILENT).failures()).isEmpty();
        GoalResult sandboxed = DigestGoal.grade(digest(settings("digest", "boxed", SandboxSpec.Mode.REQUIRED), replay), GradeLog.SILENT);
        assertThat(sandboxed.failures()).singleElement().asString().contains("stdout_sha256");
    }

    @Test
    void aCandidateCannotRewriteAReportWrittenEarlierInTheBuild() throws Exception {
        Path envelope = Files.writeString(dir.resolve("envelope.json"), "{\"timeout_s\": 5, \"max_rss_kb\": 1000000, \"max_user_us\": 10000000}");
        GoalSettings first = settings("envelope", "first", SandboxSpec.Mode.REQUIRED);
        EnvelopeGoal.grade(EnvelopeGoal.grading(first).envelope(envelope).command(List.of("/bin/true")).hostCheck(HostCheck.IGNORE).build(),
                GradeLog.SILENT);
        String before = Files.readString(first.xmlReport());
        List<String> rewrite = List.of(Fixtures.command("tamper_file"), first.xmlReport().toString());
        DigestGoal.record(digest(settings("digest", "gold", SandboxSpec.Mode.REQUIRED), List.of("/bin/echo")), GradeLog.SILENT);
        DigestGoal.grade(digest(settings("digest", "later", SandboxSpec.Mode.REQUIRED), rewrite), GradeLog.SILENT);
        assertThat(Files.readString(first.xmlReport())).isEqualTo(before);
    }

    @Test
    void everyReportSaysWhetherItsVerdictIsTamperProof() throws Exception {
        GoalSettings boxed = settings("digest", "boxed", SandboxSpec.Mode.REQUIRED);
        DigestGoal.record(digest(boxed, List.of("/bin/echo")), GradeLog.SILENT);
        DigestGoal.grade(digest(boxed, List.of("/bin/echo")), GradeLog.SILENT);
        assertThat(Files.readString(boxed.jsonReport())).contains("\"mode\" : \"namespaces\"", "\"tamper_proof\" : true");
        assertThat(Files.readString(boxed.xmlReport())).contains("<property name=\"patchgrade.sandbox\" value=\"namespaces:");
        GoalSettings open = settings("digest", "open", SandboxSpec.Mode.OFF);
        DigestGoal.grade(digest(open, List.of("/bin/echo")), GradeLog.SILENT);
        assertThat(Files.readString(open.jsonReport())).contains("\"mode\" : \"off\"", "\"reason\" : \"sandbox=off was set\"",
                "\"tamper_proof\" : false");
        assertThat(Files.readString(open.xmlReport())).contains("not tamper-proof");
    }

    @Test
    void aRunRefusedAWriteByTheSandboxSaysWhichSettingAllowsIt() throws Exception {
        GoalSettings boxed = settings("digest", "writer", SandboxSpec.Mode.REQUIRED);
        DigestGoal.record(digest(boxed, List.of("/bin/echo")), GradeLog.SILENT);
        dev.patchgrade.core.RecordingLog log = new dev.patchgrade.core.RecordingLog();
        List<String> warnings = log.warnings;
        Path out = dir.resolve("out.log");
        GoalResult result = DigestGoal.grade(digest(boxed, List.of("/bin/sh", "-c", "echo \"$1\" > " + out, "sh")), log);
        assertThat(result.failed()).isTrue();
        assertThat(Files.readString(boxed.xmlReport())).contains("hint: the sandbox refused a write to " + out, "add the directory to the writablePaths setting");
        assertThat(warnings).anyMatch(w -> w.contains("refused a write to " + out));
    }
}
