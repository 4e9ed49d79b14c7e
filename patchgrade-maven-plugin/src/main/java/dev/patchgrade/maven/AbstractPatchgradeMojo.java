package dev.patchgrade.maven;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.SandboxSettings;
import dev.patchgrade.core.launch.SandboxSpec;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecution;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

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

    @Parameter(defaultValue = "${project}", readonly = true)
    private MavenProject project;

    /**
     * Runs every child in a sandbox of Linux namespaces: auto (where the kernel allows, else a warning),
     * required (else error sandbox_unavailable) or off.
     */
    @Parameter(property = "patchgrade.sandbox", defaultValue = "auto")
    private String sandbox;

    /** More paths children must not see (empty and unreadable inside the sandbox). */
    @Parameter
    private List<File> hiddenPaths;

    /** Paths children may read even inside a hidden area (e.g. shared libraries under the home directory). */
    @Parameter
    private List<File> readOnlyPaths;

    /** Paths children may write (everything else is read-only; each run has its own empty /tmp). */
    @Parameter
    private List<File> writablePaths;

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
        } catch (java.io.UncheckedIOException e) {
            // Reports or scratch files that cannot be written: the message names the file, the cause says why.
            throw new MojoExecutionException("io_error: " + e.getMessage() + ": " + e.getCause().getMessage()
                    + "; check that the directory exists and is writable", e);
        }
    }

    protected abstract String goal();

    protected abstract void executeGoal() throws MojoExecutionException, MojoFailureException;

    protected GoalSettings settings() {
        SandboxSpec.Mode mode = SandboxSpec.Mode.parse(sandbox);
        if (mode == null) {
            throw new PatchgradeException("bad_parameter", "<sandbox> (-Dpatchgrade.sandbox) must be auto, required or off (found \""
                    + sandbox + "\")");
        }
        SandboxSettings sandboxSettings = new SandboxSettings(mode, ModuleOracles.of(project),
                project == null ? null : project.getBasedir().toPath(), paths(hiddenPaths), paths(readOnlyPaths), paths(writablePaths));
        return new GoalSettings(goal(), mojoExecution.getExecutionId(), reportsDirectory.toPath(),
                buildDirectory.toPath().resolve("patchgrade"), workingDirectory.toPath(), environment).withSandbox(sandboxSettings);
    }

    private static List<Path> paths(List<File> files) {
        return files == null ? List.of() : files.stream().map(File::toPath).toList();
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

    /** Turns a grading result into the build outcome: error, failure, or a logged failure under testFailureIgnore. */
    protected void conclude(GoalResult result, boolean testFailureIgnore) throws MojoExecutionException, MojoFailureException {
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
