package dev.patchgrade.core.grade;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.launch.SandboxSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.function.Supplier;

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
     * The sandbox of one execution as configured, resolved once: the mode checked, the build's modules read once
     * ({@code reactor}, not at all with the sandbox off, when nothing is hidden) and the output directories they
     * name created, so that each is there to hide when a launcher opens.
     *
     * @param mode {@code sandbox} as given: auto, required or off
     */
    public static SandboxSettings resolve(String mode, Supplier<ReactorOracles> reactor, Path projectBase, List<Path> hiddenPaths,
            List<Path> readOnlyPaths, List<Path> writablePaths) {
        SandboxSpec.Mode parsed = SandboxSpec.Mode.parse(mode);
        if (parsed == null) {
            throw new PatchgradeException(ErrorName.BAD_PARAMETER, shown -> shown.setting(Setting.SANDBOX)
                    + " must be auto, required or off (found \"" + mode + "\"); give one of them, as in " + shown.once(Setting.SANDBOX.is("auto")));
        }
        List<Path> oracles = List.of();
        if (parsed != SandboxSpec.Mode.OFF) {
            ReactorOracles found = reactor.get();
            createAbsent(found.outputDirectories());
            oracles = found.oracles();
        }
        return new SandboxSettings(parsed, oracles, projectBase, hiddenPaths, readOnlyPaths, writablePaths);
    }

    /**
     * Creates the build's output directories that do not exist yet: the sandbox hides only what exists when a
     * launcher opens, and a goal of another module may write goldens there while this one's candidates run
     * ({@code mvn -T}). One that cannot be created stays as it is: the goal that writes it will say why.
     */
    public static void createAbsent(Collection<Path> directories) {
        for (Path directory : directories) {
            if (directory != null && !Files.exists(directory, LinkOption.NOFOLLOW_LINKS)) {
                try {
                    Files.createDirectories(directory);
                } catch (IOException | RuntimeException e) {
                    // left absent: nothing is lost, the goal writing there reports its own failure
                }
            }
        }
    }

    public SandboxSettings withMode(SandboxSpec.Mode newMode) {
        return new SandboxSettings(newMode, moduleOracles, projectBase, hiddenPaths, readOnlyPaths, writablePaths);
    }
}
