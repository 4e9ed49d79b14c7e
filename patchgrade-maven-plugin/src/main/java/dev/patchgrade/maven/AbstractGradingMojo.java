package dev.patchgrade.maven;

import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalSettings;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;

/** A goal that grades: every case runs and every report is written before the build is failed once. */
public abstract class AbstractGradingMojo extends AbstractPatchgradeMojo {

    /** Write the reports but do not fail the build when a graded case breaks an oracle. */
    @Parameter(property = "patchgrade.testFailureIgnore", defaultValue = "false")
    private boolean testFailureIgnore;

    @Override
    protected boolean honoursTestSwitches() {
        return true;
    }

    protected void conclude(GoalSettings settings, GoalResult result) throws MojoExecutionException, MojoFailureException {
        conclude(settings, result, testFailureIgnore);
    }
}
