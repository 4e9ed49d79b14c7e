package dev.patchgrade.maven;

import dev.patchgrade.core.grade.GoalResult;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;

/** A goal that grades: every case runs and every report is written before the build is failed once. */
public abstract class AbstractGradingMojo extends AbstractPatchgradeMojo {

    /** Write the reports but do not fail the build when a graded case breaks an oracle. */
    @Parameter(property = "patchgrade.testFailureIgnore", defaultValue = "false")
    private boolean testFailureIgnore;

    protected void conclude(GoalResult result) throws MojoExecutionException, MojoFailureException {
        String reports = "see " + settings().xmlReport() + " and " + settings().jsonReport();
        if (result.error() != null) {
            throw new MojoExecutionException(result.error().errorName() + ": " + result.error().getMessage() + " (" + reports + ")",
                    result.error());
        }
        if (!result.failed()) {
            return;
        }
        StringBuilder message = new StringBuilder("patchgrade " + goal() + " (" + settings().executionId() + "): "
                + result.failures().size() + " graded item(s) broke an oracle, worst: " + result.worst() + "; " + reports);
        for (String failure : result.failures()) {
            message.append(System.lineSeparator()).append("  ").append(failure);
        }
        if (testFailureIgnore) {
            getLog().error(message.toString());
            getLog().warn("patchgrade.testFailureIgnore=true: the build goes on despite these failures");
            return;
        }
        throw new MojoFailureException(message.toString());
    }
}
