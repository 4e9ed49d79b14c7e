package dev.patchgrade.core.launch;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** A red-team test class's runs: each test gets a directory, shown to the sandbox, to run in. */
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
}
