package dev.patchgrade.core.grade;

import dev.patchgrade.core.cases.Case;
import dev.patchgrade.core.launch.ChildEnvironment;
import dev.patchgrade.core.launch.ExecutableCheck;
import dev.patchgrade.core.launch.LoadedLibraries;
import dev.patchgrade.core.launch.NativeHelper;
import dev.patchgrade.core.launch.SandboxSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What the children of one execution may see, resolved from what they are given: shown is only what a run needs,
 * and inside that every oracle stays hidden.
 */
final class SandboxSpecOfGoal {
    private SandboxSpecOfGoal() {}

    /**
     * Shown: the working directory, the program and the libraries the loader lists for it, every existing path the
     * command and the cases' arguments and directories name, the toolchain directories of {@code PATH} and
     * {@code LD_LIBRARY_PATH}, {@code readOnlyPaths}, and {@code writablePaths} writable. Hidden inside: every oracle
     * of the reactor and of this execution ({@code ownOracles}), {@code hiddenPaths}, the reports,
     * {@code target/patchgrade}, version-control metadata and the launcher's cache. With the sandbox off, nothing is
     * computed.
     */
    static SandboxSpec of(GoalSettings settings, List<Path> ownOracles, RunInputs inputs) {
        SandboxSettings sandbox = settings.sandbox();
        if (sandbox.mode() == SandboxSpec.Mode.OFF) {
            return SandboxSpec.off();
        }
        Path workingDirectory = settings.workingDirectory();
        Map<String, String> pinned = ChildEnvironment.pinned(settings.environment());
        Set<Path> shown = new LinkedHashSet<>();
        Set<Path> run = new LinkedHashSet<>();
        if (workingDirectory != null) {
            shown.add(workingDirectory.toAbsolutePath().normalize());
        }
        shown.addAll(RunInputs.searchPaths(pinned));
        shown.addAll(programAndNamed(inputs.command(), workingDirectory, pinned, run));
        if (inputs.cases() != null && !inputs.command().isEmpty()) {
            Set<List<Object>> settingsSeen = new HashSet<>();
            for (Case c : inputs.cases().get()) {
                Path directory = c.cwd() == null || workingDirectory == null ? workingDirectory : workingDirectory.resolve(c.cwd()).normalize();
                if (directory != null && Files.isDirectory(directory)) {
                    shown.add(directory);
                }
                shown.addAll(RunInputs.named(c.args(), directory));
                // A case's own directory and variables may find another program, other libraries, another toolchain.
                if ((c.cwd() != null || !c.env().isEmpty()) && settingsSeen.add(List.of(String.valueOf(c.cwd()), c.env()))) {
                    Map<String, String> variables = new LinkedHashMap<>(pinned);
                    variables.putAll(c.env());
                    shown.addAll(RunInputs.searchPaths(variables));
                    shown.addAll(programAndNamed(List.of(inputs.command().get(0)), directory, variables, run));
                }
            }
        }
        shown.addAll(inputs.alsoShown());
        inputs.alsoShown().forEach(path -> run.add(sameFile(path)));
        shown.addAll(sandbox.readOnlyPaths());
        // A module oracle holding what this launcher runs is left to it: a reference's home, to the reference's runs.
        List<Path> hidden = new ArrayList<>(sandbox.moduleOracles().stream()
                .filter(oracle -> run.stream().noneMatch(file -> file.startsWith(sameFile(oracle)))).toList());
        hidden.addAll(sandbox.hiddenPaths());
        ownOracles.stream().filter(Objects::nonNull).forEach(hidden::add);
        hidden.add(settings.reportsDirectory());
        hidden.add(settings.outputDirectory());
        Set<Path> repositories = new LinkedHashSet<>();
        for (Path each : shown) {
            repositories.addAll(RepositoryMetadata.above(Files.isDirectory(each) ? each : each.getParent()));
        }
        sandbox.writablePaths().forEach(path -> repositories.addAll(RepositoryMetadata.above(path)));
        hidden.addAll(repositories);
        hidden.add(NativeHelper.cacheRoot());
        return new SandboxSpec(sandbox.mode(), List.copyOf(shown), sandbox.writablePaths(), hidden);
    }

    /** The program a command runs, its libraries and every path the command names, seen from {@code directory}. */
    private static List<Path> programAndNamed(List<String> command, Path directory, Map<String, String> variables, Set<Path> run) {
        if (command.isEmpty()) {
            return List.of();
        }
        List<Path> found = new ArrayList<>();
        ExecutableCheck.Resolution program = ExecutableCheck.resolve(command.get(0), directory, variables);
        if (program.ok()) {
            found.add(program.path());
            run.add(sameFile(program.path()));
            found.addAll(LoadedLibraries.of(program.path(), directory, variables));
        }
        found.addAll(RunInputs.named(command, directory));
        return found;
    }

    /** The file a path names, links followed as the sandbox follows them where it exists. */
    static Path sameFile(Path path) {
        try {
            return path.toRealPath();
        } catch (IOException | SecurityException e) {
            return path.toAbsolutePath().normalize();
        }
    }
}
