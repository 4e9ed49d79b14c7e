package dev.patchgrade.core.grade;

import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.launch.ChildEnvironment;
import dev.patchgrade.core.launch.LaunchRequest;
import dev.patchgrade.core.launch.LaunchResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What every goal execution shares: its names, where reports and scratch output go, and the child
 * environment and directory.
 *
 * @param goal {@code envelope}, {@code digest}, ...
 * @param executionId the Maven execution id; report names carry it so executions never collide
 * @param outputDirectory where full output streams and candidate digests are kept ({@code target/patchgrade})
 */
public record GoalSettings(
        String goal,
        String executionId,
        Path reportsDirectory,
        Path outputDirectory,
        Path workingDirectory,
        Map<String, String> environment) {

    public GoalSettings {
        environment = environment == null ? Map.of() : Map.copyOf(environment);
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

    /** The JUnit suite name: the qualified name, with the shard where only a shard runs, so merged agents' reports stay apart. */
    public String suiteName(Shard shard) {
        return shard.all() ? qualifiedName() : qualifiedName() + "." + shard.label();
    }

    /** A launch of {@code command} in this execution's directory, with the pinned environment plus {@code environment} and {@code extra}. */
    public LaunchRequest launchRequest(List<String> command, Map<String, String> extra, Duration timeout) {
        Map<String, String> variables = new HashMap<>(extra);
        variables.putAll(environment);
        return LaunchRequest.of(command).withWorkingDirectory(workingDirectory).withEnvironment(ChildEnvironment.pinned(variables))
                .withTimeout(timeout);
    }

    /**
     * The result, or error {@code could_not_start} naming the POM parameter that holds the command.
     *
     * @param parameter {@code command}, {@code reference} or {@code candidate}
     */
    public static LaunchResult mustHaveStarted(LaunchResult result, String parameter, List<String> command) {
        if (!result.started()) {
            throw new PatchgradeException("could_not_start", result.startFailure().describe() + ". Check <" + parameter + "> ("
                    + String.join(" ", command) + "): build the binary before this goal runs, or fix the path");
        }
        return result;
    }

    /** Where this execution keeps the full streams of its runs. */
    public Path streamsDirectory() {
        return outputDirectory.resolve("streams").resolve(goal).resolve(executionId);
    }
}
