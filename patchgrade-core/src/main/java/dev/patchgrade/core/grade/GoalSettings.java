package dev.patchgrade.core.grade;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.Suggestions;
import dev.patchgrade.core.cases.Case;
import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.launch.ChildEnvironment;
import dev.patchgrade.core.launch.ExecutableCheck;
import dev.patchgrade.core.launch.LaunchRequest;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.launch.Launcher;
import dev.patchgrade.core.launch.Launchers;
import dev.patchgrade.core.launch.LoadedLibraries;
import dev.patchgrade.core.launch.NativeHelper;
import dev.patchgrade.core.launch.SandboxSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What every goal execution shares: its names, where reports and scratch output go, and the child
 * environment and directory.
 *
 * @param goal {@code envelope}, {@code digest}, ...
 * @param executionId the Maven execution id; report names carry it so executions never collide
 * @param outputDirectory where full output streams and candidate digests are kept ({@code target/patchgrade})
 * @param sandbox what the children of this execution may see
 * @param facts what its launchers turned out to be, for the reports
 * @param module the module's artifactId, first in suite and class names so that a reactor's modules stay apart
 *     in Jenkins; {@code null} leaves it out
 */
public record GoalSettings(
        String goal,
        String executionId,
        Path reportsDirectory,
        Path outputDirectory,
        Path workingDirectory,
        Map<String, String> environment,
        SandboxSettings sandbox,
        LaunchFacts facts,
        String module,
        Suggestions suggestions) {

    public GoalSettings {
        if (environment != null) {
            environment.forEach((name, value) -> {
                if (value == null) {
                    throw new PatchgradeException(ErrorName.BAD_PARAMETER, shown -> shown.setting(Setting.ENVIRONMENT) + " gives variable " + name
                            + " no value; give it one, as in " + shown.configured(Setting.parameter("environment." + name).is("value"))
                            + ", or remove it");
                }
            });
        }
        environment = environment == null ? Map.of() : Map.copyOf(environment);
        sandbox = sandbox == null ? SandboxSettings.auto() : sandbox;
        facts = facts == null ? new LaunchFacts() : facts;
        suggestions = suggestions == null ? Suggestions.PLAIN : suggestions;
    }

    public GoalSettings(String goal, String executionId, Path reportsDirectory, Path outputDirectory, Path workingDirectory,
            Map<String, String> environment, SandboxSettings sandbox, LaunchFacts facts, String module) {
        this(goal, executionId, reportsDirectory, outputDirectory, workingDirectory, environment, sandbox, facts, module, null);
    }

    public GoalSettings(String goal, String executionId, Path reportsDirectory, Path outputDirectory, Path workingDirectory,
            Map<String, String> environment) {
        this(goal, executionId, reportsDirectory, outputDirectory, workingDirectory, environment, SandboxSettings.auto(), null, null);
    }

    public GoalSettings withSandbox(SandboxSettings settings) {
        return new GoalSettings(goal, executionId, reportsDirectory, outputDirectory, workingDirectory, environment, settings, null, module,
                suggestions);
    }

    /** The same execution, its messages naming settings the way {@code suggestions} shows them. */
    public GoalSettings withSuggestions(Suggestions shown) {
        return new GoalSettings(goal, executionId, reportsDirectory, outputDirectory, workingDirectory, environment, sandbox, facts, module,
                shown);
    }

    /** The same execution, named in its reports after the module (its artifactId). */
    public GoalSettings withModule(String artifactId) {
        return new GoalSettings(goal, executionId, reportsDirectory, outputDirectory, workingDirectory, environment, sandbox, facts, artifactId,
                suggestions);
    }

    /** A launcher for this execution's children, sandboxed as {@link #sandboxSpec} says; its facts go to the reports. */
    public Launcher openLauncher(GradeLog log, List<Path> ownOracles, RunInputs inputs) {
        return openLauncher(log, ownOracles, inputs, Integer.MAX_VALUE);
    }

    /** The same, running at most {@code concurrency} children at once however many threads launch through it. */
    public Launcher openLauncher(GradeLog log, List<Path> ownOracles, RunInputs inputs, int concurrency) {
        SandboxSpec spec = sandboxSpec(ownOracles, inputs);
        if (spec.mode() != SandboxSpec.Mode.OFF && spec.operations() > SandboxSpec.MOST_OPERATIONS) {
            throw PatchgradeException.badParameter(Setting.READ_ONLY_PATHS, "is needed: the runs of " + qualifiedName() + " are given "
                    + spec.shown().size() + " paths (their command and cases name them), which make " + spec.operations()
                    + " binds, links and hides in the sandbox, more than the " + SandboxSpec.MOST_OPERATIONS + " it takes. Keep the inputs "
                    + "under one directory and name it in readOnlyPaths, or under the working directory, which is shown whole");
        }
        Launcher launcher = Launchers.open(log, spec, concurrency, suggestions);
        facts.observe(launcher, spec, workingDirectory);
        facts.warnCpuLimitation(log);
        return launcher;
    }

    /**
     * What the children of this execution may see, built from what they are given: the working directory, the
     * program and the libraries the loader lists for it, every existing path the command and the cases'
     * arguments and directories name, the toolchain directories of {@code PATH} and {@code LD_LIBRARY_PATH},
     * {@code readOnlyPaths}, and {@code writablePaths} writable. Hidden inside: every oracle of the reactor and
     * of this execution ({@code ownOracles}), {@code hiddenPaths}, the reports, {@code target/patchgrade},
     * version-control metadata and the launcher's cache. With the sandbox off, nothing is computed.
     */
    public SandboxSpec sandboxSpec(List<Path> ownOracles, RunInputs inputs) {
        if (sandbox.mode() == SandboxSpec.Mode.OFF) {
            return SandboxSpec.off();
        }
        Map<String, String> pinned = ChildEnvironment.pinned(environment);
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
        hidden.add(reportsDirectory);
        hidden.add(outputDirectory);
        // The repository holds every committed oracle again (git show HEAD:gold/...).
        Set<Path> repositories = new LinkedHashSet<>();
        for (Path each : shown) {
            repositories.addAll(repositoryMetadata(Files.isDirectory(each) ? each : each.getParent()));
        }
        sandbox.writablePaths().forEach(path -> repositories.addAll(repositoryMetadata(path)));
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
    private static Path sameFile(Path path) {
        try {
            return path.toRealPath();
        } catch (java.io.IOException e) {
            return path.toAbsolutePath().normalize();
        }
    }

    /**
     * The version-control metadata of the repository holding {@code directory}: each {@code .git},
     * {@code .hg}, {@code .svn}, {@code .jj}, {@code .bzr}, {@code _darcs} or {@code .pijul} from it up to the root,
     * fossil's checkout database, and for a {@code .git} file (a worktree or submodule) the git directory it names
     * and that directory's common directory.
     */
    static List<Path> repositoryMetadata(Path directory) {
        List<Path> found = new ArrayList<>();
        for (Path at = directory == null ? null : directory.toAbsolutePath().normalize(); at != null; at = at.getParent()) {
            for (String name : List.of(".git", ".hg", ".svn", ".jj", ".bzr", "_darcs", ".pijul", ".sl", ".fslckout", "_FOSSIL_")) {
                Path metadata = at.resolve(name);
                if (java.nio.file.Files.isDirectory(metadata) || (name.contains("FOSSIL") || name.equals(".fslckout"))
                        && java.nio.file.Files.isRegularFile(metadata)) {
                    found.add(metadata);
                    if (name.equals(".git")) {
                        found.addAll(alternates(metadata));
                    }
                } else if (name.equals(".git") && java.nio.file.Files.isRegularFile(metadata)) {
                    found.add(metadata);
                    Path gitDir = pointedTo(at, metadata, "gitdir:");
                    if (gitDir != null) {
                        found.add(gitDir);
                        found.addAll(alternates(gitDir));
                        Path common = pointedTo(gitDir, gitDir.resolve("commondir"), "");
                        if (common != null) {
                            found.add(common);
                            found.addAll(alternates(common));
                        }
                    }
                }
            }
        }
        return found;
    }

    /** The object stores a git directory borrows from ({@code objects/info/alternates}: a reference clone's): every commit's oracles again (red team 18). */
    private static List<Path> alternates(Path gitDirectory) {
        List<Path> stores = new ArrayList<>();
        Path objects = gitDirectory.resolve("objects");
        try {
            for (String line : java.nio.file.Files.readAllLines(objects.resolve("info/alternates"))) {
                String entry = line.strip();
                if (!entry.isEmpty() && !entry.startsWith("#")) {
                    Path store = objects.resolve(entry).normalize();
                    if (java.nio.file.Files.isDirectory(store)) {
                        stores.add(store);
                    }
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            // none
        }
        return stores;
    }

    private static Path pointedTo(Path base, Path file, String prefix) {
        try {
            String text = java.nio.file.Files.readString(file).strip();
            if (!text.startsWith(prefix)) {
                return null;
            }
            Path target = base.resolve(text.substring(prefix.length()).strip()).normalize();
            return java.nio.file.Files.isDirectory(target) ? target : null;
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
    }

    /** The executable a command runs, resolved as the launcher will: one path, or none when it cannot be found. */
    public List<Path> executablesOf(List<String> command) {
        if (command == null || command.isEmpty()) {
            return List.of();
        }
        ExecutableCheck.Resolution resolution = ExecutableCheck.resolve(command.get(0), workingDirectory, ChildEnvironment.pinned(environment));
        return resolution.ok() ? List.of(resolution.path()) : List.of();
    }

    /** The project's base directory, where recorded paths are written relative to it (the working directory where none is known). */
    public Path projectDirectory() {
        return sandbox.projectBase() != null ? sandbox.projectBase() : workingDirectory;
    }

    /**
     * A command that runs {@code goalToRun} again for this execution, as the build tool shows it (for Maven
     * {@code mvn patchgrade:record-digest@plain -Dpatchgrade.force=true}: the execution id picks this
     * execution's configuration, without which Maven would not know the command).
     */
    public String rerun(String goalToRun, Setting.Value... values) {
        return suggestions.rerun(goalToRun, executionId, values);
    }

    /** The re-run that replaces a recorded oracle. */
    public String rerecord(String goalToRun) {
        return rerun(goalToRun, Setting.FORCE.is("true"));
    }

    /**
     * A command's arguments checked for values Maven leaves {@code null} (an empty {@code <arg></arg>}).
     *
     * @param parameter the POM parameter, e.g. {@code command}
     */
    public static List<String> command(String parameter, List<String> values) {
        if (values == null) {
            return List.of();
        }
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) == null || values.get(i).isEmpty()) {
                String which = "argument " + (i + 1) + " of " + values.size();
                throw new PatchgradeException(ErrorName.BAD_PARAMETER, shown -> shown.setting(Setting.parameter(parameter)) + " has an empty argument ("
                        + which + "); remove it, or give it a value: the build tool cannot pass an empty argument on");
            }
        }
        return List.copyOf(values);
    }

    public String qualifiedName() {
        return "patchgrade." + goal + "." + executionId;
    }

    public Path xmlReport() {
        return reportsDirectory.resolve("TEST-" + qualifiedName() + ".xml");
    }

    public Path jsonReport() {
        return reportsDirectory.resolve(qualifiedName() + ".json");
    }

    /** The JUnit {@code classname} of every test case: {@code <artifactId>.patchgrade.<goal>.<executionId>}. */
    public String className() {
        return module == null || module.isBlank() ? qualifiedName() : module + "." + qualifiedName();
    }

    /** The JUnit suite name: the class name, with the shard where only a shard runs, so merged agents' reports stay apart. */
    public String suiteName(Shard shard) {
        return shard.all() ? className() : className() + "." + shard.label();
    }

    /** A launch of {@code command} in this execution's directory, with the pinned environment plus {@code environment} and {@code extra}. */
    public LaunchRequest launchRequest(List<String> command, Map<String, String> extra, Duration timeout) {
        Map<String, String> variables = new HashMap<>(extra);
        variables.putAll(environment);
        return LaunchRequest.of(command).withWorkingDirectory(workingDirectory).withEnvironment(ChildEnvironment.pinned(variables))
                .withTimeout(timeout);
    }

    /**
     * The result, or error {@code could_not_start} naming the setting that holds the command.
     *
     * @param parameter {@code command}, {@code reference} or {@code candidate}
     */
    public LaunchResult mustHaveStarted(LaunchResult result, String parameter, List<String> command) {
        if (!result.started()) {
            throw new PatchgradeException(ErrorName.COULD_NOT_START, result.startFailure().describe() + ". Check "
                    + suggestions.setting(Setting.parameter(parameter)) + " (" + String.join(" ", command)
                    + "): build the binary before this goal runs, or fix the path");
        }
        return result;
    }

    /** Where this execution keeps the full streams of its runs. */
    public Path streamsDirectory() {
        return outputDirectory.resolve("streams").resolve(goal).resolve(executionId);
    }
}
