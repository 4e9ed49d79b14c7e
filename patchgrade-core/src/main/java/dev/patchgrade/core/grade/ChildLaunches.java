package dev.patchgrade.core.grade;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.launch.ChildEnvironment;
import dev.patchgrade.core.launch.ExecutableCheck;
import dev.patchgrade.core.launch.LaunchRequest;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.launch.Launcher;
import dev.patchgrade.core.launch.Launchers;
import dev.patchgrade.core.launch.SandboxSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How one execution starts its children: the launcher its sandbox asks for, the request of each launch (its
 * directory and pinned environment) and the error that names the setting when a command cannot start.
 */
final class ChildLaunches {
    private ChildLaunches() {}

    static Launcher open(GoalSettings settings, GradeLog log, List<Path> ownOracles, RunInputs inputs, int concurrency) {
        SandboxSpec spec = SandboxSpecOfGoal.of(settings, ownOracles, inputs);
        if (spec.mode() != SandboxSpec.Mode.OFF && spec.operations() > SandboxSpec.MOST_OPERATIONS) {
            throw PatchgradeException.badParameter(Setting.READ_ONLY_PATHS, "is needed: the runs of " + settings.qualifiedName() + " are given "
                    + spec.shown().size() + " paths (their command and cases name them), which make " + spec.operations()
                    + " binds, links and hides in the sandbox, more than the " + SandboxSpec.MOST_OPERATIONS + " it takes. Keep the inputs "
                    + "under one directory and name it in readOnlyPaths, or under the working directory, which is shown whole");
        }
        Launcher launcher = Launchers.open(log, spec, concurrency, settings.suggestions());
        settings.facts().observe(launcher, spec, settings.workingDirectory());
        settings.facts().warnCpuLimitation(log);
        return launcher;
    }

    static LaunchRequest request(GoalSettings settings, List<String> command, Map<String, String> extra, Duration timeout) {
        Map<String, String> variables = new HashMap<>(extra);
        variables.putAll(settings.environment());
        return LaunchRequest.of(command).withWorkingDirectory(settings.workingDirectory()).withEnvironment(ChildEnvironment.pinned(variables))
                .withTimeout(timeout);
    }

    static List<Path> executablesOf(GoalSettings settings, List<String> command) {
        if (command == null || command.isEmpty()) {
            return List.of();
        }
        ExecutableCheck.Resolution resolution = ExecutableCheck.resolve(command.get(0), settings.workingDirectory(),
                ChildEnvironment.pinned(settings.environment()));
        return resolution.ok() ? List.of(resolution.path()) : List.of();
    }

    static LaunchResult mustHaveStarted(GoalSettings settings, LaunchResult result, String parameter, List<String> command) {
        if (!result.started()) {
            throw new PatchgradeException(ErrorName.COULD_NOT_START, result.startFailure().describe() + ". Check "
                    + settings.suggestions().setting(Setting.parameter(parameter)) + " (" + String.join(" ", command) + "): "
                    + (parameter.equals("reference")
                            // The reference is not built by the build that grades: it was built once, from the known-good commit.
                            ? "the frozen reference is built once from the known-good commit and kept outside the checkout; restore its "
                                    + "directory, or build and freeze it again there (" + settings.rerecord("freeze-reference") + ")"
                            : "build the binary before this goal runs, or fix the path"));
        }
        return result;
    }
}
