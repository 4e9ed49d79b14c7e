package dev.patchgrade.maven;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.grade.GoalSettings;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecution;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * What every patchgrade goal shares. {@link #execute()} is final: it handles {@code skip} once and
 * turns core setup errors into {@link MojoExecutionException}s, so no goal can forget either.
 */
public abstract class AbstractPatchgradeMojo extends AbstractMojo {

    /** Skips the goal. */
    @Parameter(property = "patchgrade.skip", defaultValue = "false")
    private boolean skip;

    /** Variables added to the child's pinned environment ({@code LC_ALL=C}, {@code TZ=UTC}, {@code PATH}). */
    @Parameter
    private Map<String, String> environment;

    /** The directory the graded command starts in; relative command paths resolve against it. */
    @Parameter(defaultValue = "${project.basedir}")
    private File workingDirectory;

    /** Where JUnit XML, JSON and HTML reports are written. */
    @Parameter(property = "patchgrade.reportsDirectory", defaultValue = "${project.build.directory}/patchgrade-reports")
    private File reportsDirectory;

    @Parameter(defaultValue = "${project.build.directory}", readonly = true, required = true)
    private File buildDirectory;

    @Parameter(defaultValue = "${mojoExecution}", readonly = true, required = true)
    private MojoExecution mojoExecution;

    @Override
    public final void execute() throws MojoExecutionException, MojoFailureException {
        if (skip) {
            getLog().info("patchgrade: " + goal() + " skipped (patchgrade.skip=true)");
            return;
        }
        try {
            executeGoal();
        } catch (PatchgradeException e) {
            throw new MojoExecutionException(e.errorName() + ": " + e.getMessage(), e);
        }
    }

    protected abstract String goal();

    protected abstract void executeGoal() throws MojoExecutionException, MojoFailureException;

    protected GoalSettings settings() {
        return new GoalSettings(goal(), mojoExecution.getExecutionId(), reportsDirectory.toPath(),
                buildDirectory.toPath().resolve("patchgrade"), workingDirectory.toPath(), environment);
    }

    protected Path buildDirectory() {
        return buildDirectory.toPath();
    }

    protected static Path path(File file) {
        return file == null ? null : file.toPath();
    }

    protected static List<String> list(List<String> values) {
        return values == null ? List.of() : List.copyOf(values);
    }

    protected GradeLog gradeLog() {
        return new GradeLog() {
            @Override
            public void info(String message) {
                getLog().info(message);
            }

            @Override
            public void warn(String message) {
                getLog().warn(message);
            }

            @Override
            public void debug(String message) {
                getLog().debug(message);
            }
        };
    }
}
