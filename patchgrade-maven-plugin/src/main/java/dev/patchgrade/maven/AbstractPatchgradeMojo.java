package dev.patchgrade.maven;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.grade.BuildOutcome;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.ParameterValues;
import dev.patchgrade.core.grade.ReactorOracles;
import dev.patchgrade.core.grade.SandboxSettings;
import dev.patchgrade.core.launch.SandboxSpec;
import dev.patchgrade.core.report.ReactorSummary;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecution;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * What every patchgrade goal shares. {@link #execute()} is final, as JaCoCo's is: it handles {@code skip} once,
 * resolves the execution's settings once (one reading of the reactor, its output directories created once) and
 * hands them to {@link #executeGoal}, and turns core setup errors into {@link MojoExecutionException}s, so no goal
 * can forget either or pay for the reactor twice.
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

    /** This execution as Maven sees it: its configuration says which -Dpatchgrade.* properties the POM overrides. */
    @Parameter(defaultValue = "${mojoExecution}", readonly = true, required = true)
    private MojoExecution mojoExecution;

    @Parameter(defaultValue = "${project.artifactId}", readonly = true, required = true)
    private String artifactId;

    /*
     * Maven's shared switches, declared the way Failsafe declares them: not read-only, since Maven 3.9 warns about a
     * read-only parameter in every project that defines the common <skipTests> property. Only grading goals honour them.
     */

    /** Skips the grading goals, as it skips Surefire's and Failsafe's tests. */
    @Parameter(property = "skipTests", defaultValue = "false")
    private boolean skipTests;

    /** Skips the grading goals, as it skips every test plugin. */
    @Parameter(property = "maven.test.skip", defaultValue = "false")
    private boolean mavenTestSkip;

    /** Skips the grading goals, as it skips Failsafe's integration tests. */
    @Parameter(property = "skipITs", defaultValue = "false")
    private boolean skipITs;

    /** Acts as {@code testFailureIgnore} for the grading goals (Jenkins' Maven jobs set it). */
    @Parameter(property = "maven.test.failure.ignore", defaultValue = "false")
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

    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    private MavenSession session;

    /** List every graded row on the console, not only the failing ones. */
    @Parameter(property = "patchgrade.verbose", defaultValue = "false")
    private boolean verbose;

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
        if (mojoExecution != null) {
            OverriddenProperties.warn(mojoExecution, session, goal(), getLog());
        }
        try {
            executeGoal(resolveSettings());
        } catch (PatchgradeException e) {
            throw shown(e.errorName() + ": " + e.message(MavenSuggestions.INSTANCE), e);
        } catch (java.io.UncheckedIOException e) {
            // Reports or scratch files that cannot be written: the message names the file, the cause says why.
            throw new MojoExecutionException(ErrorName.WRITE_FAILED + ": " + e.getMessage() + ": " + e.getCause().getMessage()
                    + "; check that the directory exists and is writable", e);
        }
    }

    protected abstract String goal();

    /** Grading goals (and {@code check}) are tests: Maven's shared test switches apply to them, as to Failsafe's goals. */
    protected boolean honoursTestSwitches() {
        return false;
    }

    /**
     * Whether the goal starts children. One that does not ({@code check}) is given settings without a sandbox: it has
     * nothing to hide, so no reactor to read and no directory to create.
     */
    protected boolean launchesChildren() {
        return true;
    }

    /** {@code testFailureIgnore}, or Maven's {@code maven.test.failure.ignore} that Jenkins' Maven jobs set. */
    protected boolean failuresIgnored(boolean testFailureIgnore) {
        return testFailureIgnore || mavenTestFailureIgnore;
    }

    protected String artifactId() {
        return artifactId;
    }

    /** The goal itself, given the settings this execution resolved once. */
    protected abstract void executeGoal(GoalSettings settings) throws MojoExecutionException, MojoFailureException;

    /** Called once, by {@link #execute()}: the POM configuration translated into the core's settings. */
    private GoalSettings resolveSettings() {
        SandboxSettings sandboxSettings = !launchesChildren()
                ? new SandboxSettings(SandboxSpec.Mode.OFF, List.of(), basedir(), List.of(), List.of(), List.of())
                : SandboxSettings.resolve(sandbox, this::scanReactor, basedir(), paths(hiddenPaths), paths(readOnlyPaths), paths(writablePaths));
        // check declares a reportsDirectory of its own, which Maven fills instead of this one: left null, it is never read.
        return new GoalSettings(goal(), executionId, path(reportsDirectory), buildDirectory.toPath().resolve("patchgrade"),
                workingDirectory.toPath(), environment).withSandbox(sandboxSettings).withModule(artifactId)
                .withSuggestions(MavenSuggestions.INSTANCE);
    }

    /**
     * Every module of the reactor read once, those that {@code -pl} leaves out of this build too: their oracles are on
     * the disk all the same.
     */
    ReactorOracles scanReactor() {
        java.util.Properties userProperties = session == null ? new java.util.Properties() : session.getUserProperties();
        List<MavenProject> reactor = session == null ? List.of() : session.getAllProjects() != null ? session.getAllProjects() : session.getProjects();
        return ModuleOracles.scan(project, reactor, userProperties);
    }

    /** The project's base directory (the working directory where Maven gives no project). */
    protected Path basedir() {
        return project == null ? workingDirectory.toPath() : project.getBasedir().toPath();
    }

    private static List<Path> paths(List<File> files) {
        return files == null ? List.of() : files.stream().map(File::toPath).toList();
    }

    protected static Path path(File file) {
        return file == null ? null : file.toPath();
    }

    /** A command parameter; an empty {@code <arg></arg>} is an error naming the parameter. */
    protected static List<String> list(String parameter, List<String> values) {
        return ParameterValues.command(parameter, values);
    }

    /** The console as core code sees it, every line made safe for a terminal. */
    protected GradeLog gradeLog() {
        return new MavenGradeLog(getLog(), verbose);
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

    /**
     * The error as the build shows it. Maven appends the message of every cause its message does not contain, and
     * the error's own message names settings plainly where the shown one names them as the POM does: chained, the
     * sentence would be printed twice. The error's stack and its own cause stay, for -e.
     */
    static MojoExecutionException shown(String message, PatchgradeException error) {
        MojoExecutionException shown = new MojoExecutionException(message);
        shown.setStackTrace(error.getStackTrace());
        if (error.getCause() != null) {
            shown.initCause(error.getCause());
        }
        return shown;
    }

    /** Turns a grading result into the build outcome: error, failure, or a logged failure under testFailureIgnore. */
    protected void conclude(GoalSettings settings, GoalResult result, boolean testFailureIgnore)
            throws MojoExecutionException, MojoFailureException {
        summarizeReactor();
        if (result.error() != null) {
            throw shown(BuildOutcome.errorMessage(settings, result.error()), result.error());
        }
        if (!result.failed()) {
            return;
        }
        String message = BuildOutcome.failureMessage(settings, result);
        if (failuresIgnored(testFailureIgnore)) {
            getLog().error(message);
            getLog().warn((testFailureIgnore ? "testFailureIgnore" : "maven.test.failure.ignore")
                    + "=true: the build goes on despite these failures");
            return;
        }
        throw new MojoFailureException(message);
    }
}
