package dev.patchgrade.core.grade;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.Suggestions;
import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.launch.LaunchRequest;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.launch.Launcher;
import dev.patchgrade.core.launch.SandboxSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What every goal execution shares: its names, where reports and scratch output go, and the child
 * environment and directory. Each job it is asked for is done by the class named in the method: the reports'
 * names by {@link ReportNames}, the sandbox's view by {@link SandboxSpecOfGoal}, the launches by
 * {@link ChildLaunches}; this record only holds what they are computed from, resolved once per execution.
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
        environment = ParameterValues.environment(environment);
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
        return ChildLaunches.open(this, log, ownOracles, inputs, concurrency);
    }

    /** What the children of this execution may see, built from what they are given (see {@link SandboxSpecOfGoal#of}). */
    public SandboxSpec sandboxSpec(List<Path> ownOracles, RunInputs inputs) {
        return SandboxSpecOfGoal.of(this, ownOracles, inputs);
    }

    /** The executable a command runs, resolved as the launcher will: one path, or none when it cannot be found. */
    public List<Path> executablesOf(List<String> command) {
        return ChildLaunches.executablesOf(this, command);
    }

    /** A launch of {@code command} in this execution's directory, with the pinned environment plus {@code environment} and {@code extra}. */
    public LaunchRequest launchRequest(List<String> command, Map<String, String> extra, Duration timeout) {
        return ChildLaunches.request(this, command, extra, timeout);
    }

    /**
     * The result, or error {@code could_not_start} naming the setting that holds the command.
     *
     * @param parameter {@code command}, {@code reference} or {@code candidate}
     */
    public LaunchResult mustHaveStarted(LaunchResult result, String parameter, List<String> command) {
        return ChildLaunches.mustHaveStarted(this, result, parameter, command);
    }

    /** The project's base directory, where recorded paths are written relative to it (the working directory where none is known). */
    public Path projectDirectory() {
        return sandbox.projectBase() != null ? sandbox.projectBase() : workingDirectory;
    }

    /** Where this execution keeps the full streams of its runs. */
    public Path streamsDirectory() {
        return outputDirectory.resolve("streams").resolve(goal).resolve(executionId);
    }

    /**
     * A command that runs {@code goalToRun} again for this execution, as the build tool shows it (for Maven
     * {@code mvn compile patchgrade:record-digest@plain -Dpatchgrade.force=true}: the execution id picks this
     * execution's configuration, without which Maven would not know the command).
     */
    public String rerun(String goalToRun, Setting.Value... values) {
        return suggestions.rerun(goalToRun, executionId, values);
    }

    /** The re-run that replaces a recorded oracle. */
    public String rerecord(String goalToRun) {
        return rerun(goalToRun, Setting.FORCE.is("true"));
    }

    /** What this execution's reports are called and where they go. */
    public ReportNames names() {
        return new ReportNames(goal, executionId, module, reportsDirectory);
    }

    public String qualifiedName() {
        return names().qualifiedName();
    }

    public Path xmlReport() {
        return names().xmlReport();
    }

    public Path jsonReport() {
        return names().jsonReport();
    }

    /** The JUnit {@code classname} of every test case: {@code <artifactId>.patchgrade.<goal>.<executionId>}. */
    public String className() {
        return names().className();
    }

    /** The JUnit suite name: the class name, with the shard where only a shard runs, so merged agents' reports stay apart. */
    public String suiteName(Shard shard) {
        return names().suiteName(shard);
    }
}
