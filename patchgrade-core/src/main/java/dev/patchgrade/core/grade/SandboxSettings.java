package dev.patchgrade.core.grade;

import dev.patchgrade.core.launch.SandboxSpec;
import java.nio.file.Path;
import java.util.List;

/**
 * The sandbox configuration of one goal execution.
 *
 * @param mode {@code sandbox}: auto, required or off
 * @param moduleOracles the oracle files of every patchgrade execution of the module and of every other
 *     module of the reactor, with the other modules' reports and kept streams (read from the project
 *     model), hidden from every child of every execution
 * @param projectBase the project's base directory, where recorded paths are written relative to it
 * @param hiddenPaths {@code hiddenPaths}
 * @param readOnlyPaths {@code readOnlyPaths}
 * @param writablePaths {@code writablePaths}
 */
public record SandboxSettings(SandboxSpec.Mode mode, List<Path> moduleOracles, Path projectBase, List<Path> hiddenPaths,
        List<Path> readOnlyPaths, List<Path> writablePaths) {

    public SandboxSettings {
        moduleOracles = moduleOracles == null ? List.of() : List.copyOf(moduleOracles);
        hiddenPaths = hiddenPaths == null ? List.of() : List.copyOf(hiddenPaths);
        readOnlyPaths = readOnlyPaths == null ? List.of() : List.copyOf(readOnlyPaths);
        writablePaths = writablePaths == null ? List.of() : List.copyOf(writablePaths);
    }

    /** The default: sandbox where the kernel allows, nothing configured beyond what each goal hides itself. */
    public static SandboxSettings auto() {
        return new SandboxSettings(SandboxSpec.Mode.AUTO, List.of(), null, List.of(), List.of(), List.of());
    }

    /**
     * Creates the build's output directories that do not exist yet: the sandbox hides only what exists when a
     * launcher opens, and a goal of another module may write goldens there while this one's candidates run
     * ({@code mvn -T}). One that cannot be created stays as it is: the goal that writes it will say why.
     */
    public static void createAbsent(java.util.Collection<Path> directories) {
        for (Path directory : directories) {
            if (directory != null && !java.nio.file.Files.exists(directory, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                try {
                    java.nio.file.Files.createDirectories(directory);
                } catch (java.io.IOException | RuntimeException e) {
                    // left absent: nothing is lost, the goal writing there reports its own failure
                }
            }
        }
    }

    public SandboxSettings withMode(SandboxSpec.Mode newMode) {
        return new SandboxSettings(newMode, moduleOracles, projectBase, hiddenPaths, readOnlyPaths, writablePaths);
    }
}
