package dev.patchgrade.maven;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.SandboxSettings;
import dev.patchgrade.core.launch.SandboxSpec;
import dev.patchgrade.core.report.ReactorSummary;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.maven.plugin.AbstractMojo;
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

    /** The top-level project's build directory: a reactor's page over every module goes to its patchgrade-reports. */
    @Parameter(defaultValue = "${session.topLevelProject.build.directory}", readonly = true)
    private File topLevelBuildDirectory;

    @Parameter(defaultValue = "${mojoExecution.executionId}", readonly = true, required = true)
    private String executionId;

    @Parameter(defaultValue = "${project.artifactId}", readonly = true, required = true)
    private String artifactId;

    /** Maven's shared switches, read the way Failsafe reads them; only grading goals honour them. */
    @Parameter(property = "skipTests", defaultValue = "false", readonly = true)
    private boolean skipTests;

    @Parameter(property = "maven.test.skip", defaultValue = "false", readonly = true)
    private boolean mavenTestSkip;

    @Parameter(property = "skipITs", defaultValue = "false", readonly = true)
    private boolean skipITs;

    @Parameter(property = "maven.test.failure.ignore", defaultValue = "false", readonly = true)
    private boolean mavenTestFailureIgnore;

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
        String sharedSwitch = !honoursTestSwitches() ? null
                : mavenTestSkip ? "maven.test.skip" : skipTests ? "skipTests" : skipITs ? "skipITs" : null;
        if (sharedSwitch != null) {
            getLog().info("patchgrade: " + goal() + " skipped (" + sharedSwitch + "=true; grading goals honour it as Failsafe does)");
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

    /** Grading goals (and {@code check}) are tests: Maven's shared test switches apply to them, as to Failsafe's goals. */
    protected boolean honoursTestSwitches() {
        return false;
    }

    /** {@code testFailureIgnore}, or Maven's {@code maven.test.failure.ignore} that Jenkins' Maven jobs set. */
    protected boolean failuresIgnored(boolean testFailureIgnore) {
        return testFailureIgnore || mavenTestFailureIgnore;
    }

    protected String artifactId() {
        return artifactId;
    }

    protected abstract void executeGoal() throws MojoExecutionException, MojoFailureException;

    protected GoalSettings settings() {
        SandboxSpec.Mode mode = SandboxSpec.Mode.parse(sandbox);
        if (mode == null) {
            throw new PatchgradeException("bad_parameter", "<sandbox> (-Dpatchgrade.sandbox) must be auto, required or off (found \""
                    + sandbox + "\")");
        }
        SandboxSettings sandboxSettings = new SandboxSettings(mode, ModuleOracles.of(project),
                project == null ? null : project.getBasedir().toPath(), paths(hiddenPaths), paths(readOnlyPaths), paths(writablePaths));
        return new GoalSettings(goal(), executionId, reportsDirectory.toPath(), buildDirectory.toPath().resolve("patchgrade"),
                workingDirectory.toPath(), environment).withSandbox(sandboxSettings).withModule(artifactId);
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

    /** In a reactor, lists this module's executions on the top-level project's page. */
    private void summarizeReactor() {
        if (topLevelBuildDirectory == null || topLevelBuildDirectory.equals(buildDirectory)) {
            return;
        }
        try {
            Path page = ReactorSummary.register(topLevelBuildDirectory.toPath().resolve("patchgrade-reports"), artifactId,
                    reportsDirectory.toPath());
            getLog().info("reactor summary: " + page.toUri());
        } catch (java.io.UncheckedIOException e) {
            getLog().warn("could not write the reactor summary: " + e.getMessage() + ": " + e.getCause().getMessage());
        }
    }

    /** Turns a grading result into the build outcome: error, failure, or a logged failure under testFailureIgnore. */
    protected void conclude(GoalResult result, boolean testFailureIgnore) throws MojoExecutionException, MojoFailureException {
        summarizeReactor();
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
        if (failuresIgnored(testFailureIgnore)) {
            getLog().error(message.toString());
            getLog().warn((testFailureIgnore ? "testFailureIgnore" : "maven.test.failure.ignore")
                    + "=true: the build goes on despite these failures");
            return;
        }
        throw new MojoFailureException(message.toString());
    }
}
