package dev.patchgrade.core.grade;

import dev.patchgrade.core.cases.Shard;
import java.nio.file.Path;

/**
 * What one execution's reports are called and where they go: a reactor's modules and a module's executions each
 * name theirs apart, so that neither a file nor a JUnit suite of one overwrites another's in Jenkins.
 *
 * @param goal {@code envelope}, {@code digest}, ...
 * @param executionId the Maven execution id
 * @param module the module's artifactId, first in suite and class names; {@code null} leaves it out
 * @param reportsDirectory where JUnit XML, JSON and HTML reports are written
 */
public record ReportNames(String goal, String executionId, String module, Path reportsDirectory) {

    /** {@code patchgrade.<goal>.<executionId>}: the JSON report's name and the JUnit class name without the module. */
    public String qualifiedName() {
        return "patchgrade." + goal + "." + executionId;
    }

    public Path xmlReport() {
        return reportsDirectory.resolve("TEST-" + qualifiedName() + ".xml");
    }

    /** The failing rows' feedback for whoever repairs the candidate: {@code patchgrade.<goal>.<executionId>.feedback.jsonl}. */
    public Path feedbackFile() {
        return reportsDirectory.resolve(qualifiedName() + ".feedback.jsonl");
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
}
