package dev.patchgrade.core.launch;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** A attack test class's runs: each test gets a directory, shown to the sandbox, to run in. */
abstract class SandboxedRunTest {
    @TempDir
    Path dir;

    Launcher open() {
        return SandboxedRuns.open(dir);
    }

    LaunchResult run(Launcher launcher, String... command) {
        return SandboxedRuns.run(launcher, dir, command);
    }

    LaunchResult sh(Launcher launcher, String script) {
        return SandboxedRuns.sh(launcher, dir, script);
    }

    /**
     * A run whose work takes seconds on a quiet machine (thousands of threads, hundreds of MB): what it measures
     * must not depend on how busy the machine is, so it has the time a busy one needs.
     */
    LaunchResult runLong(Launcher launcher, String... command) {
        return launcher.launch(LaunchRequest.of(java.util.List.of(command)).withWorkingDirectory(dir).withTimeout(java.time.Duration.ofSeconds(120)));
    }

    LaunchResult shLong(Launcher launcher, String script) {
        return runLong(launcher, "/bin/sh", "-c", script);
    }
}
