package dev.patchgrade.core.grade;

import java.nio.file.Path;
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

    /** Where this execution keeps the full streams of its runs. */
    public Path streamsDirectory() {
        return outputDirectory.resolve("streams").resolve(goal).resolve(executionId);
    }
}
