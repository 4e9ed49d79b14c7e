package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.SandboxAvailability;
import dev.patchgrade.core.Fixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** The attack tests' runs: a launcher with the sandbox required that shows {@code dir}, and runs in it. */
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

    /** What runs beside the flood. */
    interface Beside {
        void run() throws Exception;
    }

    /**
     * Runs {@code beside} while a run of {@code flooder} holds as many descriptors in flight as the kernel lets it
     * (the fixture attacker's flood-hold, in {@code shared}, which runs must be able to write); the flood holds
     * until released, so all of {@code beside} happens while it is in place, however slow the host.
     *
     * @return the flood's line: "flooded N stop=..."
     */
    static String whileFlooding(Launcher flooder, Path dir, Path shared, Beside beside) throws Exception {
        Path flooding = shared.resolve("flooding");
        Path release = shared.resolve("release");
        CompletableFuture<LaunchResult> flood = CompletableFuture.supplyAsync(
                () -> flooder.launch(LaunchRequest.of(List.of(Fixtures.command("attacker"), "flood-hold", flooding.toString(), release.toString()))
                        .withWorkingDirectory(dir).withTimeout(Duration.ofSeconds(180))));
        try {
            while (!Files.exists(flooding) && !flood.isDone()) {
                Thread.sleep(20);
            }
            assertThat(flooding).as("the flood is in place").exists();
            beside.run();
        } finally {
            Files.writeString(release, "");
        }
        return flood.get().stdout().excerpt();
    }

    /** Four runs of {@code launcher} start, end and print what they should. */
    static void assertRunsGoOn(Launcher launcher, Path dir) {
        for (int i = 0; i < 4; i++) {
            LaunchResult run = sh(launcher, dir, "echo run " + i);
            assertThat(run.startFailure()).as("run %d", i).isNull();
            assertThat(run.exitCode()).as("run %d", i).isZero();
            assertThat(run.stdout().excerpt()).isEqualTo("run " + i + "\n");
        }
    }
}
