package dev.patchgrade.core.classify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.grade.GoalSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SPEC's worst pattern, reference_identity_drift, is what the identity check produces, before any row runs. */
class ReferenceIdentityTest {
    @TempDir
    Path dir;

    @Test
    void aSwappedReferenceIsTheWorstPattern() throws Exception {
        GoalSettings settings = new GoalSettings("three-column", "id", dir.resolve("reports"), dir.resolve("out"), dir, Map.of());
        Path sidecar = dir.resolve("reference.sha256");
        ThreeColumnGoal.freeze(settings, List.of("/bin/echo"), Files.createDirectories(dir.resolve("frozen")), sidecar, false, GradeLog.SILENT);
        ThreeColumnGoal.Options frozen = ThreeColumnGoal.builder(settings)
                .cases(dir.resolve("cases.jsonl"))
                .reference(List.of("/bin/echo"))
                .candidate(List.of("/bin/echo"))
                .referenceDigest(sidecar)
                .comparison(Comparison.parse("trim"))
                .timeoutSeconds(5)
                .parallel(1)
                .build();
        assertThat(ThreeColumnGrading.identity(frozen, new ReferenceHome(dir, List.of(Path.of("/bin/echo"))))).isNull();
        assertThat(ThreeColumnGrading.identity(frozen, new ReferenceHome(dir, List.of(Path.of("/bin/cat"))))).isEqualTo(DriftPattern.REFERENCE_IDENTITY_DRIFT);
        Files.delete(sidecar);
        assertThat(ThreeColumnGrading.identity(frozen, new ReferenceHome(dir, List.of(Path.of("/bin/echo"))))).isEqualTo(DriftPattern.REFERENCE_IDENTITY_DRIFT);
        assertThat(DriftPattern.values()[0]).as("worst first").isEqualTo(DriftPattern.REFERENCE_IDENTITY_DRIFT);
    }

    /** A reference's named input edited by hand is told apart from a swapped executable: the message names the file. */
    @Test
    void theMessageNamesWhichOfTheReferencesFilesChanged() {
        List<Path> files = List.of(Path.of("/opt/ref/bin/ref"), Path.of("/work/data/dict.txt"));
        String a = "a".repeat(64), b = "b".repeat(64), c = "c".repeat(64);
        assertThat(ThreeColumnGrading.changed(files, List.of(a, c), List.of(a, b)))
                .isEqualTo("the reference's file /work/data/dict.txt (sha256 " + c + ", frozen as " + b + ") has changed")
                .doesNotContain("/opt/ref/bin/ref");
        assertThat(ThreeColumnGrading.changed(files, List.of(c, c), List.of(a, b))).startsWith("the reference's files /opt/ref/bin/ref")
                .endsWith(" have changed");
        assertThat(ThreeColumnGrading.changed(files, List.of(a, b), List.of(a))).contains("now names 2 file(s)").contains("where 1 were frozen");
    }
}
