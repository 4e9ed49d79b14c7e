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
        ThreeColumnGoal.freeze(settings, List.of("/bin/echo"), sidecar, false, GradeLog.SILENT);
        ThreeColumnGoal.Options frozen = ThreeColumnGoal.builder(settings)
                .cases(dir.resolve("cases.jsonl"))
                .reference(List.of("/bin/echo"))
                .candidate(List.of("/bin/echo"))
                .referenceDigest(sidecar)
                .comparison(Comparison.parse("trim"))
                .timeoutSeconds(5)
                .parallel(1)
                .build();
        assertThat(ThreeColumnGrading.identity(frozen, ReferenceFiles.of(Path.of("/bin/echo"), List.of("/bin/echo"), dir, dir))).isNull();
        assertThat(ThreeColumnGrading.identity(frozen, ReferenceFiles.of(Path.of("/bin/cat"), List.of("/bin/cat"), dir, dir))).isEqualTo(DriftPattern.REFERENCE_IDENTITY_DRIFT);
        Files.delete(sidecar);
        assertThat(ThreeColumnGrading.identity(frozen, ReferenceFiles.of(Path.of("/bin/echo"), List.of("/bin/echo"), dir, dir))).isEqualTo(DriftPattern.REFERENCE_IDENTITY_DRIFT);
        assertThat(DriftPattern.values()[0]).as("worst first").isEqualTo(DriftPattern.REFERENCE_IDENTITY_DRIFT);
    }
}
