package dev.patchgrade.core.grade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.patchgrade.core.Fixtures;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.classify.Comparison;
import dev.patchgrade.core.classify.ThreeColumnGoal;
import dev.patchgrade.core.digest.DigestGoal;
import dev.patchgrade.core.digest.Sanitizer;
import dev.patchgrade.core.digest.TimeBuckets;
import dev.patchgrade.core.envelope.EnvelopeGoal;
import dev.patchgrade.core.envelope.HostCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Inputs written by people in a hurry: each ends in one error that names the file, the place and the fix. */
class BadInputTest {
    /** One bucket below a minute: these tests are about other fields, and a loaded CI machine must not move them. */
    private static final String WIDE_BUCKET = "60000";

    @TempDir
    Path dir;

    private GoalSettings settings(String goal) {
        return new GoalSettings(goal, "bad", dir.resolve("reports"), dir.resolve("out"), dir, Map.of());
    }

    private DigestGoal.Options digest(Path cases, List<String> command) {
        return DigestGoal.Options.builder(settings("digest"))
                .cases(cases)
                .gold(dir.resolve("gold"))
                .command(command)
                .timeoutSeconds(5)
                .buckets(TimeBuckets.parse(WIDE_BUCKET))
                .timeBucketReruns(0)
                .parallel(2)
                .build();
    }

    private PatchgradeException recordError(Path cases, List<String> command) {
        try {
            DigestGoal.record(digest(cases, command), GradeLog.SILENT);
        } catch (PatchgradeException e) {
            return e;
        }
        throw new AssertionError("expected an error");
    }

    @Test
    void aScriptWithoutAShebangCouldNotStart() throws Exception {
        Path cases = Files.writeString(dir.resolve("cases.txt"), "1\n");
        PatchgradeException e = recordError(cases, List.of(Fixtures.command("no-shebang")));
        assertThat(e.errorName()).isEqualTo("could_not_start");
        assertThat(e.getMessage()).isEqualTo(Fixtures.command("no-shebang") + ": not a program this system can run (no #! line and not a "
                + "binary; it is not run through /bin/sh). Check the command setting (" + Fixtures.command("no-shebang")
                + "): build the binary before this goal runs, or fix the path");
        assertThat(dir.resolve("gold")).doesNotExist();
    }

    @Test
    void aNonExecutableBinaryCouldNotStart() throws Exception {
        Path cases = Files.writeString(dir.resolve("cases.txt"), "1\n");
        assertThat(recordError(cases, List.of(Fixtures.command("not-executable"))).getMessage())
                .startsWith(Fixtures.command("not-executable") + ": not executable (the execute bit is not set)");
    }

    @Test
    void malformedJsonLinesNameTheLine() throws Exception {
        Path cases = Files.writeString(dir.resolve("cases.jsonl"), "{\"id\":\"a\",\"args\":[]}\n\n{\"id\":\"b\",\"args\":[}\n");
        PatchgradeException e = recordError(cases, List.of(Fixtures.command("crash")));
        assertThat(e.errorName()).isEqualTo("malformed_cases");
        assertThat(e.getMessage()).startsWith(cases + ":3: not valid JSON (");
    }

    @Test
    void duplicateIdsAndEmptyFiles() throws Exception {
        Path duplicate = Files.writeString(dir.resolve("dup.jsonl"), "{\"id\":\"a\",\"args\":[]}\n{\"id\":\"a\",\"args\":[\"x\"]}\n");
        assertThat(recordError(duplicate, List.of(Fixtures.command("crash"))).getMessage()).isEqualTo(duplicate
                + ":2: duplicate case id \"a\" (first on line 1); every id must be unique because reports and gold files are keyed by it");
        Path empty = Files.writeString(dir.resolve("empty.txt"), "\n\n");
        assertThat(recordError(empty, List.of(Fixtures.command("crash"))).getMessage())
                .isEqualTo(empty + ": holds no cases; add at least one argument line");
    }

    @Test
    void hostileIdsNeverLeaveTheGoldCandidateOrStreamDirectories() throws Exception {
        String longId = "x".repeat(4000);
        Path cases = Files.writeString(dir.resolve("ids.jsonl"), String.join("\n",
                "{\"id\":\"../escape\",\"args\":[\"exit:0\"]}",
                "{\"id\":\"a/b\",\"args\":[\"exit:0\"]}",
                "{\"id\":\"..\",\"args\":[\"exit:0\"]}",
                "{\"id\":\"nul\\u0000id\",\"args\":[\"exit:0\"]}",
                "{\"id\":\"" + longId + "\",\"args\":[\"exit:0\"]}") + "\n");
        // keepAll: every passing case's candidate digest and streams are written, so every name is put to the test.
        DigestGoal.Options options = digest(cases, List.of(Fixtures.command("crash"))).keepingAll(true);
        DigestGoal.record(options, GradeLog.SILENT);
        GoalResult result = DigestGoal.grade(options, GradeLog.SILENT);
        assertThat(result.error()).isNull();
        assertThat(result.failures()).isEmpty();
        for (Path directory : List.of(dir.resolve("gold"), DigestGoal.candidateDirectory(options.settings()), options.settings().streamsDirectory())) {
            try (Stream<Path> files = Files.walk(directory)) {
                List<Path> all = files.filter(Files::isRegularFile).toList();
                assertThat(all).isNotEmpty().allMatch(f -> f.getParent().equals(directory));
                assertThat(all).allMatch(f -> f.getFileName().toString().length() < 120);
            }
        }
        assertThat(dir.resolve("escape.json")).doesNotExist();
        assertThat(dir.resolve("out/cand/escape.json")).doesNotExist();
        assertThat(Files.list(dir.resolve("gold")).count()).isEqualTo(5);
    }

    @Test
    void aSidecarInTheWrongFormat() throws Exception {
        Path sidecar = Files.writeString(dir.resolve("reference.sha256"), "md5: 0123\n");
        Path cases = Files.writeString(dir.resolve("cases.jsonl"), "{\"id\":\"a\",\"args\":[],\"golden\":\"\"}\n");
        GoalResult result = threeColumn(settings("three-column"), cases, List.of(Fixtures.command("crash")), List.of(Fixtures.command("crash")), sidecar);
        assertThat(result.error().errorName()).isEqualTo("malformed_sidecar");
        assertThat(result.error().getMessage()).isEqualTo(sidecar + ": line 1 is not in sha256sum format, \"<64 hex digits>  <path>\" "
                + "(found \"md5: 0123\"). Re-create it with `run freeze-reference for execution bad with force=true` after reviewing the reference");
        assertThat(Files.readString(sidecar)).isEqualTo("md5: 0123\n");
    }

    @Test
    void unknownComparisonAndImpossibleShard() {
        assertThatThrownBy(() -> Comparison.parse("fuzzy")).hasMessage(
                "the comparison setting must be trim, exact, ulp:N (N >= 0) or abs:EPS (EPS >= 0), e.g. ulp:4 or abs:1e-9 (found \"fuzzy\")");
        assertThatThrownBy(() -> Shard.parse("3/2")).hasMessage("the shard setting must be K/N with 1 <= K <= N, e.g. 2/4 (found \"3/2\")");
    }

    @Test
    void envelopeErrorsLeaveNoHalfWrittenFiles() throws Exception {
        Path envelope = Files.writeString(dir.resolve("envelope.json"), "{\"timeout_s\": 0, \"max_rss_kb\": 1, \"max_user_us\": 1}");
        GoalSettings s = settings("envelope");
        GoalResult result = EnvelopeGoal.grade(EnvelopeGoal.grading(s)
                .envelope(envelope)
                .command(List.of(Fixtures.command("crash")))
                .hostCheck(HostCheck.FAIL)
                .build(), GradeLog.SILENT);
        assertThat(result.error().getMessage()).isEqualTo(envelope + ": key \"timeout_s\" must be a number of seconds from 0.001 to 86400 (one day) (found 0); "
                + "give the wall-clock cap of one run, e.g. \"timeout_s\": 5");
        try (Stream<Path> files = Files.list(s.reportsDirectory())) {
            assertThat(files.map(p -> p.getFileName().toString()).sorted().toList())
                    .containsExactly(".summary", "TEST-patchgrade.envelope.bad.xml", "index.html", "patchgrade.css", "patchgrade.envelope.bad.json");
        }
        assertThat(Files.readString(envelope)).isEqualTo("{\"timeout_s\": 0, \"max_rss_kb\": 1, \"max_user_us\": 1}");
    }

    @Test
    void aMissingCandidateNamesTheParameterToFix() throws Exception {
        GoalSettings s = settings("three-column");
        Path sidecar = dir.resolve("reference.sha256");
        ThreeColumnGoal.freeze(s, List.of(Fixtures.command("crash")), sidecar, false, GradeLog.SILENT);
        Path cases = Files.writeString(dir.resolve("cases.jsonl"), "{\"id\":\"a\",\"args\":[\"exit:0\"],\"golden\":\"\"}\n");
        String missing = dir.resolve("bin/cand_billing").toString();
        GoalResult result = threeColumn(s, cases, List.of(Fixtures.command("crash")), List.of(missing), sidecar);
        assertThat(result.error().getMessage()).isEqualTo(missing + ": not found (no file at " + missing + "). Check the candidate setting (" + missing
                + "): build the binary before this goal runs, or fix the path");
    }

    @Test
    void aMissingReferenceSaysItIsRestoredOrFrozenAgainNotBuiltByThisBuild() throws Exception {
        GoalSettings s = settings("three-column");
        Path cases = Files.writeString(dir.resolve("cases.jsonl"), "{\"id\":\"a\",\"args\":[\"exit:0\"],\"golden\":\"\"}\n");
        String missing = dir.resolve("frozen/bin/billing").toString();
        GoalResult result = threeColumn(s, cases, List.of(missing), List.of(Fixtures.command("crash")), dir.resolve("reference.sha256"));
        assertThat(result.error().errorName()).isEqualTo("could_not_start");
        assertThat(result.error().getMessage()).startsWith(missing + ": not found").contains("Check the reference setting (" + missing + "): the frozen "
                + "reference is built once from the known-good commit and kept outside the checkout; restore its directory, or build and freeze it "
                + "again there (").doesNotContain("build the binary before this goal runs");
    }

    /** A three-column grade with the defaults these cases do not vary: trim, 5 s, one row at a time. */
    private static GoalResult threeColumn(GoalSettings s, Path cases, List<String> reference, List<String> candidate, Path sidecar) {
        return ThreeColumnGoal.grade(ThreeColumnGoal.builder(s).cases(cases).reference(reference).candidate(candidate).referenceDigest(sidecar)
                .comparison(Comparison.parse("trim")).timeoutSeconds(5).parallel(1).build(), GradeLog.SILENT);
    }
}
