package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.grade.SandboxSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An oracle directory absent when a launcher opened was left out of the hides, and the read-only host
 * is a live view: a sibling module's reports written later under {@code mvn -T} (every row's golden) were readable.
 * The goals create the build's output directories first; one that exists is hidden whatever is written into it later.
 */
class AbsentOracleTest {
    @TempDir
    Path dir;

    @Test
    void anOutputDirectoryCreatedBeforeTheLauncherOpensStaysHiddenWhateverIsWrittenLater() throws Exception {
        dev.patchgrade.core.SandboxAvailability.assumeAvailable();
        Path siblingReports = dir.resolve("scoring/target/patchgrade-reports");
        Path report = siblingReports.resolve("patchgrade.three-column.tenths.json");
        SandboxSettings.createAbsent(List.of(siblingReports));
        assertThat(siblingReports).isDirectory();
        SandboxSpec spec = dev.patchgrade.core.SandboxAvailability.view(SandboxSpec.Mode.REQUIRED, List.of(dir), List.of(), List.of(siblingReports));
        try (Launcher launcher = Launchers.open(GradeLog.SILENT, spec)) {
            assertThat(SandboxedRuns.sh(launcher, dir, "true").exitCode()).isZero();
            Files.writeString(report, "{\"golden\":\"secret-answer\"}");
            LaunchResult run = SandboxedRuns.sh(launcher, dir, "cat " + report + " || echo unread");
            assertThat(run.stdout().excerpt()).doesNotContain("secret-answer").contains("unread");
        }
        // The control: the same directory absent when the launcher opens is not hidden (why the goals create it).
        Path absent = dir.resolve("other/target/patchgrade-reports");
        SandboxSpec late = dev.patchgrade.core.SandboxAvailability.view(SandboxSpec.Mode.REQUIRED, List.of(dir), List.of(), List.of(absent));
        try (Launcher launcher = Launchers.open(GradeLog.SILENT, late)) {
            assertThat(SandboxedRuns.sh(launcher, dir, "true").exitCode()).isZero();
            Files.createDirectories(absent);
            Files.writeString(absent.resolve("r.json"), "secret-answer");
            assertThat(SandboxedRuns.sh(launcher, dir, "cat " + absent.resolve("r.json")).stdout().excerpt()).contains("secret-answer");
        }
    }
}
