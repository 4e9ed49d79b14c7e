package dev.patchgrade.core.differential;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.patchgrade.core.Fixtures;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.classify.ThreeColumnGoal;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.report.JsonReports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A generator that fails, prints what is no case, or prints other cases for the same seed stops the grade with
 * an error naming it (and the line, or the case), the seed kept in the error's reports; nothing is graded.
 */
class GeneratorErrorsTest {
    @TempDir
    Path dir;
    private Path reference;
    private Path sidecar;

    @BeforeEach
    void reference() throws Exception {
        Files.createDirectories(dir.resolve("frozen/bin"));
        reference = Files.copy(Fixtures.path("tenths_modes"), dir.resolve("frozen/bin/tenths"), StandardCopyOption.COPY_ATTRIBUTES);
        sidecar = dir.resolve("reference.sha256");
        ThreeColumnGoal.freeze(settings(), List.of(reference.toString()), sidecar, false, GradeLog.SILENT);
    }

    private GoalSettings settings() {
        return new GoalSettings("differential", "gen", dir.resolve("reports"), dir.resolve("out"), dir, Map.of());
    }

    private GoalResult grade(String generatorScript) throws Exception {
        Path generator = Files.writeString(dir.resolve("gen.sh"), generatorScript);
        Files.setPosixFilePermissions(generator, PosixFilePermissions.fromString("rwxr-xr-x"));
        return DifferentialGoal.grade(DifferentialGoal.builder(settings())
                .reference(List.of(reference.toString()))
                .candidate(List.of(reference.toString()))
                .referenceDigest(sidecar)
                .generator(List.of(generator.toString()))
                .count(3)
                .seed(new Seed(77, true))
                .parallel(1)
                .build(), GradeLog.SILENT);
    }

    private JsonNode report() throws Exception {
        return JsonReports.MAPPER.readTree(settings().jsonReport().toFile());
    }

    private void assertReportsNameTheError(String type) throws Exception {
        JsonNode report = report();
        assertThat(report.path("error").path("type").asText()).isEqualTo(type);
        assertThat(report.path("seed").asLong()).as("the seed that reproduces it").isEqualTo(77);
        assertThat(report.has("cases")).isFalse();
        String xml = Files.readString(settings().xmlReport());
        assertThat(xml).contains("type=\"" + type + "\"", "<property name=\"patchgrade.seed\" value=\"77\"/>");
    }

    @Test
    void aGeneratorThatFailsIsNamedWithItsExitStatusTheEndOfItsStderrAndHowToRunIt() throws Exception {
        GoalResult result = grade("#!/bin/sh\necho starting >&2\necho 'no table for this seed' >&2\nexit 3\n");
        assertThat(result.error().errorName()).isEqualTo("generator_failed");
        assertThat(result.error().getMessage())
                .contains("the generator `" + dir.resolve("gen.sh") + "` (seed 77, count 3) exited with status 3")
                .contains("its stderr ended with:\n  starting\n  no table for this seed")
                .contains("Run it by hand to see why: `PATCHGRADE_SEED=77 PATCHGRADE_COUNT=3 " + dir.resolve("gen.sh") + "`");
        assertReportsNameTheError("generator_failed");
    }

    @Test
    void aGeneratorThatCannotStartIsCouldNotStartNamingTheSetting() throws Exception {
        Path missing = dir.resolve("no-such-generator");
        GoalResult result = DifferentialGoal.grade(DifferentialGoal.builder(settings()).reference(List.of(reference.toString()))
                .candidate(List.of(reference.toString())).referenceDigest(sidecar).generator(List.of(missing.toString())).count(3)
                .seed(new Seed(77, true)).parallel(1).build(), GradeLog.SILENT);
        assertThat(result.error().errorName()).isEqualTo("could_not_start");
        assertThat(result.error().getMessage()).contains("no-such-generator").contains("the generator setting");
    }

    @Test
    void badJsonNamesTheLineOfTheGeneratorsOutput() throws Exception {
        GoalResult result = grade("#!/bin/sh\necho '{\"id\":\"a\",\"args\":[\"1\"]}'\necho\necho '{\"id\":\"b\",\"args\":[\"2\"'\n");
        assertThat(result.error().errorName()).isEqualTo("malformed_generated_cases");
        assertThat(result.error().getMessage()).contains("(seed 77, count 3): output line 3 is not valid JSON")
                .contains("The whole output is in " + dir.resolve("out/streams/differential/gen/~generator-1.stdout"));
        assertThat(Files.readString(dir.resolve("out/streams/differential/gen/~generator-1.stdout"))).contains("\"b\"");
        assertReportsNameTheError("malformed_generated_cases");
    }

    @Test
    void anIdPrintedTwiceNamesBothLines() throws Exception {
        GoalResult result = grade("#!/bin/sh\nfor i in 1 2 1; do echo \"{\\\"id\\\":\\\"c$i\\\",\\\"args\\\":[\\\"$i\\\"]}\"; done\n");
        assertThat(result.error().errorName()).isEqualTo("malformed_generated_cases");
        assertThat(result.error().getMessage()).contains("output line 3 repeats the id \"c1\" of line 1");
    }

    @Test
    void aGeneratorThatPrintsOtherCasesForTheSameSeedIsNamedWithTheCaseThatDiffers() throws Exception {
        // Its own process id: another for every run, whatever the seed.
        GoalResult result = grade("#!/bin/sh\necho '{\"id\":\"fixed\",\"args\":[\"1\"]}'\necho \"{\\\"id\\\":\\\"drawn\\\",\\\"args\\\":[\\\"$(date +%N)$$\\\"]}\"\n");
        assertThat(result.error().errorName()).isEqualTo("generator_not_deterministic");
        assertThat(result.error().getMessage())
                .contains("(seed 77, count 3) printed other cases when run again with the same seed: case 2 differs: the first run printed \"drawn\" with args [")
                .contains("draw every choice from PATCHGRADE_SEED");
        assertReportsNameTheError("generator_not_deterministic");
    }

    @Test
    void theReferenceIsCheckedBeforeTheGeneratorRuns() throws Exception {
        Files.writeString(sidecar, "0".repeat(64) + "  frozen/bin/tenths\n");
        GoalResult result = grade("#!/bin/sh\nexit 3\n");
        assertThat(result.error().errorName()).isEqualTo("reference_identity_drift");
        assertThat(result.error().getMessage()).contains("is no longer the behaviour the candidate must keep").doesNotContain("golden");
        assertReportsNameTheError("reference_identity_drift");
    }

    @Test
    void theGeneratorGetsTheSeedAndTheCountAndPrintingFewerCasesIsGradedWithAWarning() throws Exception {
        dev.patchgrade.core.RecordingLog log = new dev.patchgrade.core.RecordingLog();
        Path generator = Files.writeString(dir.resolve("gen.sh"),
                "#!/bin/sh\necho \"{\\\"id\\\":\\\"seed\\\",\\\"args\\\":[\\\"$PATCHGRADE_SEED\\\"]}\"\necho \"{\\\"id\\\":\\\"count\\\",\\\"args\\\":[\\\"$PATCHGRADE_COUNT\\\"]}\"\n");
        Files.setPosixFilePermissions(generator, PosixFilePermissions.fromString("rwxr-xr-x"));
        // The execution's own environment cannot change what the generator is told.
        GoalSettings withSeedVariable = new GoalSettings("differential", "gen", dir.resolve("reports"), dir.resolve("out"), dir,
                Map.of("PATCHGRADE_SEED", "1", "PATCHGRADE_COUNT", "1"));
        GoalResult result = DifferentialGoal.grade(DifferentialGoal.builder(withSeedVariable).reference(List.of(reference.toString()))
                .candidate(List.of(reference.toString())).referenceDigest(sidecar).generator(List.of(generator.toString())).count(3)
                .seed(new Seed(77, true)).parallel(1).build(), log);
        assertThat(result.error()).isNull();
        JsonNode cases = report().path("cases");
        assertThat(cases.path(0).path("args").path(0).asText()).isEqualTo("77");
        assertThat(cases.path(1).path("args").path(0).asText()).isEqualTo("3");
        assertThat(log.warnings).anySatisfy(w -> assertThat(w).contains("printed 2 case(s), not the 3 PATCHGRADE_COUNT asked for"));
    }
}
