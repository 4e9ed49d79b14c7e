package dev.patchgrade.maven;

import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.ModuleCheck;
import dev.patchgrade.core.report.ExecutionSummary;
import java.io.File;
import java.nio.file.Path;
import java.util.Date;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Fails the build once, at the end, when any grading execution of this module reported a failure or
 * an error, listing all of them. Declare it after the grading executions and give those
 * {@code testFailureIgnore}: every oracle then runs and reports before the build fails, the way
 * Failsafe's {@code verify} judges what {@code integration-test} ran.
 */
@Mojo(name = "check", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true)
public class CheckMojo extends AbstractPatchgradeMojo {

    /** Where the grading executions wrote their reports. */
    @Parameter(property = "patchgrade.reportsDirectory", defaultValue = "${project.build.directory}/patchgrade-reports")
    private File reportsDirectory;

    /**
     * Log the failures but do not fail the build (errors still fail it), as {@code -Dpatchgrade.testFailureIgnore=true}
     * or {@code -Dmaven.test.failure.ignore=true} ask. A {@code <testFailureIgnore>} in the plugin's configuration is
     * for the grading executions and does not reach this goal, so fail at end works with it set plugin-wide.
     */
    @Parameter(property = "patchgrade.testFailureIgnore", defaultValue = "false")
    private boolean ignoreFailures;

    /** Reports older than this build are left over from an earlier one and are not judged. */
    @Parameter(defaultValue = "${session.request.startTime}", readonly = true)
    private Date buildStarted;

    @Override
    protected String goal() {
        return "check";
    }

    @Override
    protected boolean honoursTestSwitches() {
        return true;
    }

    @Override
    protected boolean launchesChildren() {
        return false;
    }

    @Override
    protected void executeGoal(GoalSettings settings) throws MojoExecutionException, MojoFailureException {
        Path reports = reportsDirectory.toPath();
        ModuleCheck.Result result = ModuleCheck.read(reports, buildStarted == null ? null : buildStarted.toInstant());
        for (Path stale : result.stale()) {
            getLog().info("patchgrade check: passing over " + stale.getFileName() + ", written before this build");
        }
        if (result.executions().isEmpty()) {
            getLog().info("patchgrade check: no grading execution of this build wrote a report in " + reports);
            return;
        }
        String failures = result.failureSummary(artifactId(), reports);
        if (failures == null) {
            getLog().info("patchgrade check: all " + result.executions().size() + " grading execution(s) of " + artifactId() + " passed");
            return;
        }
        if (!result.with(ExecutionSummary.Status.ERROR).isEmpty()) {
            throw new MojoExecutionException(failures);
        }
        if (failuresIgnored(ignoreFailures)) {
            getLog().error(failures);
            getLog().warn("patchgrade.testFailureIgnore or maven.test.failure.ignore is set: the build goes on despite these failures");
            return;
        }
        throw new MojoFailureException(failures);
    }
}
