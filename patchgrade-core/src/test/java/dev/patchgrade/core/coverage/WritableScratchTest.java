package dev.patchgrade.core.coverage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.RecordingLog;
import dev.patchgrade.core.SandboxAvailability;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.launch.LaunchRequest;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.launch.Launcher;
import dev.patchgrade.core.launch.SandboxSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runs may write their coverage data in the scratch and nowhere else of the hidden target/patchgrade. */
class WritableScratchTest {
    @TempDir
    Path dir;

    @Test
    void aWritablePathInsideAHiddenAreaIsBoundAfterTheHides() throws Exception {
        Path area = Files.createDirectories(dir.resolve("target/patchgrade"));
        Path runs = Files.createDirectories(area.resolve("coverage/mine/runs"));
        Path out = Files.createDirectories(dir.resolve("out"));
        SandboxSpec spec = new SandboxSpec(SandboxSpec.Mode.REQUIRED, List.of(dir), List.of(out, runs), List.of(area));
        List<String> args = spec.helperArguments();
        int hide = args.indexOf(area.toRealPath().toString());
        int through = args.lastIndexOf(runs.toRealPath().toString());
        assertThat(args.get(hide - 1)).isEqualTo("--hide");
        assertThat(args.get(through - 1)).isEqualTo("--rw");
        assertThat(through).as("after the hide it lies in").isGreaterThan(hide);
        assertThat(args.indexOf(out.toRealPath().toString())).as("an ordinary writable path comes before the hides").isLessThan(hide);
    }

    @Test
    void inTheSandboxTheScratchIsWritableAndWhatItsAreaHoldsStaysHidden() throws Exception {
        SandboxAvailability.assumeAvailable();
        Path project = Files.createDirectories(dir.resolve("project"));
        GoalSettings settings = new GoalSettings("patch-coverage", "w", project.resolve("target/patchgrade-reports"), project.resolve("target/patchgrade"), project,
                Map.of()).withSandbox(new dev.patchgrade.core.grade.SandboxSettings(SandboxSpec.Mode.REQUIRED, List.of(), project, List.of(), List.of(),
                List.of()));
        Path kept = Files.createDirectories(settings.outputDirectory().resolve("cand/other"));
        Files.writeString(kept.resolve("secret.json"), "gold\n");
        CoverageScratch scratch = CoverageScratch.fresh(settings);
        try (Launcher launcher = scratch.openLauncher(settings, new RecordingLog(), List.of(), dev.patchgrade.core.grade.RunInputs.of(List.of("/bin/sh")), 1)) {
            LaunchResult result = launcher.launch(LaunchRequest.of(List.of("/bin/sh", "-c", "echo data > \"$1/x.gcda\" && echo wrote; "
                    + "cat \"$2\" 2>/dev/null || echo hidden; touch \"$3/y\" 2>/dev/null || echo refused", "sh", scratch.runs().toString(),
                    kept.resolve("secret.json").toString(), scratch.gcov().toString())).withEnvironment(Map.of("PATH", "/usr/bin:/bin")));
            assertThat(result.stdout().excerpt()).isEqualTo("wrote\nhidden\nrefused\n");
        }
        assertThat(scratch.runs().resolve("x.gcda")).hasContent("data");
        assertThat(scratch.gcov().resolve("y")).doesNotExist();
    }
}
