package dev.patchgrade.core;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.patchgrade.core.launch.Launcher;
import dev.patchgrade.core.launch.Launchers;
import dev.patchgrade.core.launch.SandboxSpec;

/**
 * Whether this machine gives the sandbox. Tests that need it are skipped (not failed) where the kernel
 * refuses user namespaces; what auto and required do there is tested by simulating the refusal.
 */
public final class SandboxAvailability {
    private static Boolean available;

    private SandboxAvailability() {}

    public static synchronized boolean available() {
        if (available == null) {
            try (Launcher launcher = Launchers.open(GradeLog.SILENT, SandboxSpec.of(SandboxSpec.Mode.REQUIRED))) {
                available = launcher.sandbox().active();
            } catch (PatchgradeException e) {
                available = false;
            }
        }
        return available;
    }

    public static void assumeAvailable() {
        assumeTrue(available(), "this kernel refuses user namespaces, so the sandbox cannot be tested here");
    }

    /** A sandbox that must be up and shows {@code shown}; the test is skipped where the kernel refuses it. */
    public static dev.patchgrade.core.launch.SandboxSpec requiredShowing(java.nio.file.Path shown) {
        assumeAvailable();
        return new dev.patchgrade.core.launch.SandboxSpec(dev.patchgrade.core.launch.SandboxSpec.Mode.REQUIRED, java.util.List.of(),
                java.util.List.of(shown), java.util.List.of(), java.util.List.of(), java.util.List.of());
    }
}
