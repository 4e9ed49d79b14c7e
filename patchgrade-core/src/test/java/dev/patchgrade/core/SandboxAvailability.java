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

    /** A sandbox that must be up and shows {@code shown} (and the fixtures); the test is skipped where the kernel refuses it. */
    public static SandboxSpec requiredShowing(java.nio.file.Path shown) {
        assumeAvailable();
        return view(SandboxSpec.Mode.REQUIRED, java.util.List.of(shown), java.util.List.of(), java.util.List.of());
    }

    /** A view that shows {@code shown}, the test's fixtures and the test's classes and resources, as a goal shows a run its program. */
    public static SandboxSpec view(SandboxSpec.Mode mode, java.util.List<java.nio.file.Path> shown, java.util.List<java.nio.file.Path> writable,
            java.util.List<java.nio.file.Path> hidden) {
        java.util.List<java.nio.file.Path> all = new java.util.ArrayList<>(shown);
        all.add(java.nio.file.Path.of(System.getProperty("patchgrade.fixtures", "target/fixtures")).toAbsolutePath());
        return new SandboxSpec(mode, all, writable, hidden);
    }
}
