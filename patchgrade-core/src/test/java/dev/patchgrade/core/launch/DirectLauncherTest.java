package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.Fixtures;
import dev.patchgrade.core.GradeLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The path taken where the helper cannot be built: commands run, rusage is honestly absent. */
class DirectLauncherTest {

    @Test
    void runsCommandsButReportsNoRusage() {
        List<String> warnings = new ArrayList<>();
        GradeLog log = new GradeLog() {
            @Override public void info(String message) {}
            @Override public void warn(String message) { warnings.add(message); }
            @Override public void debug(String message) {}
        };
        String previous = System.getProperty(Launchers.MODE_PROPERTY);
        System.setProperty(Launchers.MODE_PROPERTY, "direct");
        try (Launcher launcher = Launchers.open(log)) {
            assertThat(launcher.measuresUsage()).isFalse();
            assertThat(warnings).singleElement().asString().contains("cannot measure peak RSS");
            LaunchResult result = launcher.launch(LaunchRequest.of(List.of(Fixtures.command("touch_mb"), "10")));
            assertThat(result.exitCode()).isZero();
            assertThat(result.stdout().excerpt()).startsWith("touched 10 MiB");
            assertThat(result.usage()).isEqualTo(Usage.UNAVAILABLE);
            assertThat(result.usage().maxRssKb()).isNull();

            LaunchResult noShebang = launcher.launch(LaunchRequest.of(List.of(Fixtures.command("no-shebang"))));
            assertThat(noShebang.startFailure().kind()).isEqualTo(StartFailure.Kind.BAD_FORMAT);

            LaunchResult timedOut = launcher.launch(LaunchRequest.of(List.of(Fixtures.command("ignore_term_sleeper")))
                    .withTimeout(Duration.ofMillis(300)));
            assertThat(timedOut.timedOut()).isTrue();
        } finally {
            if (previous == null) {
                System.clearProperty(Launchers.MODE_PROPERTY);
            } else {
                System.setProperty(Launchers.MODE_PROPERTY, previous);
            }
        }
    }

    @Test
    void stopsAChildPastTheOutputCap(@TempDir Path dir) {
        try (Launcher launcher = new DirectLauncher(dir, Duration.ofMillis(200), "test", "test", Integer.MAX_VALUE)) {
            LaunchResult result = launcher.launch(LaunchRequest.of(List.of(Fixtures.command("print_forever")))
                    .withOutputLimit(1 << 20).withTimeout(Duration.ofSeconds(20)));
            assertThat(result.outputLimited()).isTrue();
            assertThat(result.timedOut()).isFalse();
        }
        assertThat(dir.toFile().list()).as("no scratch file outlives the run").isEmpty();
    }
}
