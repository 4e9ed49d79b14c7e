package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.SandboxAvailability;
import java.nio.file.Path;
import java.util.List;

/** The red-team tests' runs: a launcher with the sandbox required that shows {@code dir}, and runs in it. */
final class SandboxedRuns {
    private SandboxedRuns() {}

    static Launcher open(Path dir) {
        Launcher launcher = Launchers.open(GradeLog.SILENT, SandboxAvailability.requiredShowing(dir));
        assertThat(launcher.sandbox().active()).as(launcher.sandbox().describe()).isTrue();
        return launcher;
    }

    static LaunchResult run(Launcher launcher, Path dir, String... command) {
        return launcher.launch(LaunchRequest.of(List.of(command)).withWorkingDirectory(dir));
    }

    static LaunchResult sh(Launcher launcher, Path dir, String script) {
        return run(launcher, dir, "/bin/sh", "-c", script);
    }
}
