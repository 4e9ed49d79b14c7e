package dev.patchgrade.core.grade;

import dev.patchgrade.core.hashing.Sha256;

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
import dev.patchgrade.core.launch.SandboxSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Candidates written to get a green grade by any means. Each must end in its verdict within its time
 * bound, leave no process of the fixture behind, and leave well-formed reports.
 */
class HostileCandidatesTest {
    /** One bucket below a minute: these tests are about other fields, and a loaded CI machine must not move them. */
    private static final String WIDE_BUCKET = "60000";

    private static final String EMPTY = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    @TempDir
    Path dir;

    private GoalSettings settings(String goal, String execution) {
        return new GoalSettings(goal, execution, dir.resolve("reports"), dir.resolve("out"), dir, Map.of());
    }

    /** Without the sandbox the write lands, and the oracle guard is the line that catches it. */
    private GoalSettings unsandboxed(GoalSettings settings) {
        return settings.withSandbox(SandboxSettings.auto().withMode(SandboxSpec.Mode.OFF));
    }

    /** A gold that expects a quiet, clean, fast exit 0 for every case. */
    private DigestGoal.Options digestAgainstQuietGold(String execution, List<String> command, String... ids) throws Exception {
        return digestAgainstQuietGold(execution, 2, command, ids);
    }

    private DigestGoal.Options digestAgainstQuietGold(String execution, int timeoutSeconds, List<String> command, String... ids)
            throws Exception {
        StringBuilder cases = new StringBuilder();
        List<DigestTuple> gold = new java.util.ArrayList<>();
        for (String id : ids) {
            cases.append(id).append('\n');
            gold.add(new DigestTuple(id, 0, EMPTY, EMPTY, dev.patchgrade.core.digest.SanitizerClass.CLEAN, dev.patchgrade.core.digest.Buckets.label("lt_60s")));
        }
        Path casesFile = Files.writeString(dir.resolve(execution + ".txt"), cases);
        GoldWriter.replace(dir.resolve(execution + "-gold"), gold, null, List.of());
        return DigestGoal.Options.builder(settings("digest", execution))
                .cases(casesFile)
                .gold(dir.resolve(execution + "-gold"))
                .command(command)
                .timeoutSeconds(timeoutSeconds)
                .buckets(TimeBuckets.parse(WIDE_BUCKET))
                .timeBucketReruns(0)
                .parallel(2)
                .build();
    }

    private static DigestGoal.Options withSettings(DigestGoal.Options o, GoalSettings settings) {
        return DigestGoal.Options.builder(settings)
                .run(o.run())
                .gold(o.gold())
                .command(o.command())
                .sanitizer(o.sanitizer())
                .buckets(o.buckets())
                .timeBucketReruns(o.timeBucketReruns())
                .normalize(o.normalize())
                .build();
    }

    private record Timed(GoalResult result, long millis) {}

    private static Timed timed(java.util.function.Supplier<GoalResult> goal) {
        long start = System.nanoTime();
        GoalResult result = goal.get();
        return new Timed(result, (System.nanoTime() - start) / 1_000_000);
    }

    private static void wellFormed(GoalSettings settings) throws Exception {
        DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(settings.xmlReport().toFile());
        assertThat(settings.jsonReport()).exists();
        try (var files = Files.list(settings.reportsDirectory())) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(name -> name.endsWith(".tmp"));
        }
    }

    /**
     * The sandbox hides what exists when its worker starts. On a clean project the reports directory did not, and
     * the report bodies written into it as cases finished (expected and actual streams, a reference's stdout) were
     * there for every later case to read. Each case here counts what it sees in the reports directory.
     */
    @Test
    void reportsBeingWrittenAreHiddenFromLaterCasesOnACleanProject() throws Exception {
        dev.patchgrade.core.SandboxAvailability.assumeAvailable();
        Path seen = Files.createDirectories(dir.resolve("seen"));
        Path candidate = dir.resolve("look.sh");
        Files.writeString(candidate, "#!/bin/sh\nls -A " + dir.resolve("reports") + " 2>/dev/null | wc -l >> " + seen.resolve("log") + "\n");
        Files.setPosixFilePermissions(candidate, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        DigestGoal.Options options = digestAgainstQuietGold("look", List.of(candidate.toString()), "a", "b", "c", "d", "e", "f");
        GoalSettings sandboxed = options.settings().withSandbox(new SandboxSettings(SandboxSpec.Mode.REQUIRED, List.of(), dir, List.of(), List.of(),
                List.of(seen)));
        assertThat(dir.resolve("reports")).doesNotExist();
        GoalResult result = DigestGoal.grade(withSettings(options, sandboxed), GradeLog.SILENT);
        assertThat(result.failures()).isEmpty();
        assertThat(Files.readAllLines(seen.resolve("log"))).as("entries each case saw in the reports directory").hasSize(6).containsOnly("0");
    }

    @Test
    void printingForeverStopsAtTheOutputCap() throws Exception {
        // A timeout far beyond the time 64 MiB take even on a busy machine: the cap, not the clock, must stop it.
        DigestGoal.Options options = digestAgainstQuietGold("forever", 60, List.of(Fixtures.command("print_forever")), "flood");
        Timed run = timed(() -> DigestGoal.grade(options, GradeLog.SILENT));
        assertThat(run.result().worst()).isEqualTo("output_limit");
        assertThat(run.result().failures().get(0)).contains("output_limit: under 67108864 bytes per stream -> stopped at the cap")
                .doesNotContain("timeout");
        assertThat(Files.size(options.settings().streamsDirectory().resolve("flood.stdout"))).isLessThanOrEqualTo(64L << 20);
        assertThat(Fixtures.aliveAfterSettling("print_forever")).isEmpty();
        wellFormed(options.settings());
    }

    @Test
    void ignoringSigtermEndsInATimeoutAndDies() throws Exception {
        DigestGoal.Options options = digestAgainstQuietGold("sleeper", List.of(Fixtures.command("ignore_term_sleeper")), "nap");
        Timed run = timed(() -> DigestGoal.grade(options, GradeLog.SILENT));
        assertThat(run.result().failures()).singleElement().asString().startsWith("nap: sanitizer: clean -> timeout");
        assertThat(run.millis()).as("the 2 s timeout was honoured").isGreaterThanOrEqualTo(2_000L);
        assertThat(Fixtures.aliveAfterSettling("ignore_term_sleeper")).isEmpty();
        wellFormed(options.settings());
    }

    @Test
    void aGrandchildHoldingStdoutOpenIsGradedInTheParentsTime() throws Exception {
        DigestGoal.Options options = digestAgainstQuietGold("grandchild", List.of(Fixtures.command("escaping_grandchild")), "bg", "setsid");
        Timed run = timed(() -> DigestGoal.grade(options, GradeLog.SILENT));
        // Only stdout differs from a quiet gold: the parent printed and exited 0, nothing timed out. Waiting for the
        // grandchild's 30 s would have hit the 2 s timeout, so this holds however busy the machine is.
        assertThat(run.result().failures()).hasSize(2).allMatch(f -> f.contains("stdout_sha256") && !f.contains("timeout"));
        assertThat(Fixtures.aliveAfterSettling("escaping_grandchild")).isEmpty();
        wellFormed(options.settings());
    }

    @Test
    void forkedChildrenAreAllGone() throws Exception {
        DigestGoal.Options options = digestAgainstQuietGold("forks", List.of(Fixtures.command("fork_many")), "32");
        Timed run = timed(() -> DigestGoal.grade(options, GradeLog.SILENT));
        // The children sleep 30 s: waiting for them would have hit the 2 s timeout.
        assertThat(run.result().failures()).singleElement().asString().contains("stdout_sha256").doesNotContain("timeout");
        assertThat(Fixtures.aliveAfterSettling("fork_many")).isEmpty();
    }

    @Test
    void crashesAreNamedBySignal() throws Exception {
        DigestGoal.Options options = digestAgainstQuietGold("crashes", List.of(Fixtures.command("crash")), "segv", "abort", "kill");
        GoalResult result = DigestGoal.grade(options, GradeLog.SILENT);
        assertThat(result.failures()).containsExactly(
                "segv: sanitizer: clean -> crash; exit: 0 -> -11; stderr_sha256: " + EMPTY + " (empty) -> "
                        + Sha256.of("about to segv\n".getBytes(StandardCharsets.UTF_8)),
                "abort: sanitizer: clean -> crash; exit: 0 -> -6; stderr_sha256: " + EMPTY + " (empty) -> "
                        + Sha256.of("about to abort\n".getBytes(StandardCharsets.UTF_8)),
                "kill: sanitizer: clean -> crash; exit: 0 -> -9; stderr_sha256: " + EMPTY + " (empty) -> "
                        + Sha256.of("about to kill\n".getBytes(StandardCharsets.UTF_8)));
        for (String how : List.of("segv", "abort", "kill")) {
            GoalSettings s = settings("envelope", "crash-" + how);
            Path envelope = Files.writeString(dir.resolve("envelope-" + how + ".json"),
                    "{\"timeout_s\": 5, \"max_rss_kb\": 1000000, \"max_user_us\": 10000000}");
            GoalResult graded = EnvelopeGoal.grade(EnvelopeGoal.grading(s)
                    .envelope(envelope)
                    .command(List.of(Fixtures.command("crash"), how))
                    .hostCheck(HostCheck.IGNORE)
                    .build(), GradeLog.SILENT);
            assertThat(graded.failures()).singleElement().asString()
                    .contains("signal_SIG" + Map.of("segv", "SEGV", "abort", "ABRT", "kill", "KILL").get(how));
            wellFormed(s);
        }
    }

    @Test
    void silentAndStderrOnlyCandidates() throws Exception {
        DigestGoal.Options quiet = digestAgainstQuietGold("silent", List.of(Fixtures.command("crash")), "exit:0");
        assertThat(DigestGoal.grade(quiet, GradeLog.SILENT).failures()).singleElement().asString()
                .startsWith("exit:0: stderr_sha256");
        DigestGoal.Options loud = digestAgainstQuietGold("stderr-only", List.of(Fixtures.command("write_bytes"), "10"), "err");
        GoalResult result = DigestGoal.grade(loud, GradeLog.SILENT);
        assertThat(result.failures()).singleElement().asString().startsWith("err: stderr_sha256: " + EMPTY + " (empty) -> ");
        assertThat(Files.size(loud.settings().streamsDirectory().resolve("err.stderr"))).isEqualTo(10L << 20);
        assertThat(Files.size(loud.settings().xmlReport())).as("excerpts are capped").isLessThan(100_000);
        wellFormed(loud.settings());
    }

    @Test
    void rewritingTheGoldDirectoryIsRefusedInTheSandbox() throws Exception {
        dev.patchgrade.core.SandboxAvailability.assumeAvailable();
        Path planted = dir.resolve("tamper-gold").resolve("planted.json");
        DigestGoal.Options options = digestAgainstQuietGold("tamper", List.of(Fixtures.command("tamper_file"), planted.toString()), "one");
        GoalResult result = DigestGoal.grade(options, GradeLog.SILENT);
        assertThat(result.error()).isNull();
        assertThat(result.failures()).singleElement().asString().contains("stdout_sha256");
        assertThat(planted).doesNotExist();
        assertThat(Files.readString(options.settings().jsonReport())).contains("\"mode\" : \"namespaces\"");
        wellFormed(options.settings());
    }

    @Test
    void rewritingTheGoldDirectoryIsOracleTampered() throws Exception {
        Path planted = dir.resolve("tamper-gold").resolve("planted.json");
        DigestGoal.Options sandboxed = digestAgainstQuietGold("tamper", List.of(Fixtures.command("tamper_file"), planted.toString()), "one");
        DigestGoal.Options options = withSettings(sandboxed, unsandboxed(sandboxed.settings()));
        GoalResult result = DigestGoal.grade(options, GradeLog.SILENT);
        assertThat(result.error().errorName()).isEqualTo("oracle_tampered");
        assertThat(result.error().getMessage()).contains(dir.resolve("tamper-gold").toString());
        wellFormed(options.settings());
    }

    @Test
    void rewritingTheCasesFileIsOracleTampered() throws Exception {
        Path cases = dir.resolve("rewrite.txt");
        DigestGoal.Options sandboxed = digestAgainstQuietGold("rewrite", List.of(Fixtures.command("tamper_file"), cases.toString()), "one");
        String before = Files.readString(cases);
        if (dev.patchgrade.core.SandboxAvailability.available()) {
            assertThat(DigestGoal.grade(sandboxed, GradeLog.SILENT).error()).isNull();
            assertThat(Files.readString(cases)).isEqualTo(before);
        }
        DigestGoal.Options options = withSettings(sandboxed, unsandboxed(sandboxed.settings()));
        assertThat(DigestGoal.grade(options, GradeLog.SILENT).error().getMessage()).contains("rewrite.txt");
    }

    @Test
    void rewritingTheEnvelopeIsOracleTampered() throws Exception {
        String text = "{\"timeout_s\": 5, \"max_rss_kb\": 1000000, \"max_user_us\": 10000000}";
        Path envelope = Files.writeString(dir.resolve("envelope.json"), text);
        if (dev.patchgrade.core.SandboxAvailability.available()) {
            GoalResult inSandbox = EnvelopeGoal.grade(EnvelopeGoal.grading(settings("envelope", "tamper"))
                    .envelope(envelope)
                    .command(List.of(Fixtures.command("tamper_file"), envelope.toString()))
                    .hostCheck(HostCheck.IGNORE)
                    .build(), GradeLog.SILENT);
            assertThat(inSandbox.error()).isNull();
            assertThat(Files.readString(envelope)).isEqualTo(text);
        }
        GoalSettings s = unsandboxed(settings("envelope", "tamper"));
        GoalResult result = EnvelopeGoal.grade(EnvelopeGoal.grading(s)
                .envelope(envelope)
                .command(List.of(Fixtures.command("tamper_file"), envelope.toString()))
                .hostCheck(HostCheck.IGNORE)
                .build(), GradeLog.SILENT);
        assertThat(result.error().errorName()).isEqualTo("oracle_tampered");
        assertThat(result.error().getMessage()).contains("envelope.json");
        wellFormed(s);
    }

    @Test
    void rewritingTheSidecarIsOracleTampered() throws Exception {
        GoalSettings s = unsandboxed(settings("three-column", "tamper"));
        Path sidecar = dir.resolve("reference.sha256");
        ThreeColumnGoal.freeze(s, List.of(Fixtures.command("crash")), sidecar, false, GradeLog.SILENT);
        Path cases = Files.writeString(dir.resolve("cases.jsonl"), "{\"id\":\"a\",\"args\":[],\"golden\":\"ok\"}\n");
        GoalResult result = ThreeColumnGoal.grade(ThreeColumnGoal.builder(s)
                .cases(cases)
                .reference(List.of(Fixtures.command("crash"), "exit:0"))
                .candidate(List.of(Fixtures.command("tamper_file"), sidecar.toString()))
                .referenceDigest(sidecar)
                .comparison(Comparison.parse("trim"))
                .timeoutSeconds(5)
                .parallel(1)
                .build(), GradeLog.SILENT);
        assertThat(result.error().errorName()).isEqualTo("oracle_tampered");
        assertThat(result.error().getMessage()).contains("reference.sha256");
        assertThat(Files.readString(s.jsonReport())).contains("\"worst\" : \"oracle_tampered\"");
    }

    @Test
    void aCandidateSnoopingItsEnvironmentFindsNoOracle() throws Exception {
        GoalSettings s = settings("three-column", "snoop");
        Path sidecar = dir.resolve("snoop.sha256");
        ThreeColumnGoal.freeze(s, List.of(Fixtures.command("crash")), sidecar, false, GradeLog.SILENT);
        String golden = "THE-GOLDEN-ANSWER-42";
        Path cases = Files.writeString(dir.resolve("snoop.jsonl"), "{\"id\":\"a\",\"args\":[\"arg\"],\"golden\":\"" + golden + "\"}\n");
        ThreeColumnGoal.grade(ThreeColumnGoal.builder(s)
                .cases(cases)
                .reference(List.of(Fixtures.command("crash"), "exit:0"))
                .candidate(List.of(Fixtures.command("child_state")))
                .referenceDigest(sidecar)
                .comparison(Comparison.parse("trim"))
                .timeoutSeconds(5)
                .parallel(1)
                .build(), GradeLog.SILENT);
        String seen = Files.readString(s.streamsDirectory().resolve("a.candidate.stdout"));
        assertThat(seen).contains("arg arg\n").doesNotContain(golden).doesNotContain("snoop.jsonl").doesNotContain("snoop.sha256")
                .doesNotContain(dir.toString() + "/reports");
        assertThat(seen.lines().filter(l -> l.startsWith("env ")).map(l -> l.substring(4, l.indexOf('='))).sorted().toList())
                .containsExactly("LC_ALL", "PATH", "TZ");
    }
}
