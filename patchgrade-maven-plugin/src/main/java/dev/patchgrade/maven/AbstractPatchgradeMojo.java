package dev.patchgrade.maven;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.SandboxSettings;
import dev.patchgrade.core.launch.SandboxSpec;
import dev.patchgrade.core.report.ConsoleText;
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
import org.codehaus.plexus.util.xml.Xpp3Dom;

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

    /** This execution as Maven sees it: its configuration says which -Dpatchgrade.* properties the POM overrides. */
    @Parameter(defaultValue = "${mojoExecution}", readonly = true, required = true)
    private MojoExecution mojoExecution;

    @Parameter(defaultValue = "${project.artifactId}", readonly = true, required = true)
    private String artifactId;

    /*
     * Maven's shared switches, declared the way Failsafe declares them: not read-only, since Maven 3.9 warns about a
     * read-only parameter in every project that defines the common <skipTests> property. Only grading goals honour them.
     */

    /** Skips the grading goals ({@code envelope}, {@code digest}, {@code three-column}, {@code check}), as it skips Failsafe's. */
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
        warnOverriddenProperties();
        try {
            executeGoal();
        } catch (PatchgradeException e) {
            throw new MojoExecutionException(e.errorName() + ": " + e.message(MavenSuggestions.INSTANCE), e);
        } catch (java.io.UncheckedIOException e) {
            // Reports or scratch files that cannot be written: the message names the file, the cause says why.
            throw new MojoExecutionException(ErrorName.WRITE_FAILED + ": " + e.getMessage() + ": " + e.getCause().getMessage()
                    + "; check that the directory exists and is writable", e);
        }
    }

    /**
     * Maven gives a parameter set in the POM precedence over its {@code -D} user property, silently. Say so
     * for every {@code -Dpatchgrade.*} this execution's configuration overrides: a {@code -Dpatchgrade.gold}
     * that loses to the POM must not let {@code force} overwrite the committed gold unnoticed.
     */
    private void warnOverriddenProperties() {
        Xpp3Dom configuration = mojoExecution.getConfiguration();
        if (configuration == null || session == null || mojoExecution.getMojoDescriptor() == null
                || mojoExecution.getMojoDescriptor().getParameters() == null) {
            return;
        }
        for (org.apache.maven.plugin.descriptor.Parameter parameter : mojoExecution.getMojoDescriptor().getParameters()) {
            String expression = parameter.getExpression();
            if (expression == null || !expression.startsWith("${patchgrade.") || !expression.endsWith("}")) {
                continue;
            }
            String property = expression.substring(2, expression.length() - 1);
            String given = session.getUserProperties().getProperty(property);
            Xpp3Dom element = configuration.getChild(parameter.getName());
            if (given == null || element == null) {
                continue;
            }
            String configured = element.getValue();
            if (element.getChildCount() == 0 && (configured == null || configured.equals(expression) || configured.equals(given))) {
                continue;
            }
            getLog().warn("-D" + property + "=" + given + " is ignored by patchgrade:" + goal() + "@" + mojoExecution.getExecutionId()
                    + ": the POM configures <" + parameter.getName() + ">" + (configured == null ? "" : configured) + "</"
                    + parameter.getName() + "> for this execution, and Maven gives the POM precedence over -D. Remove <"
                    + parameter.getName() + "> from the execution's configuration (or write ${" + property + "} there) to choose it on "
                    + "the command line");
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
            throw new PatchgradeException(ErrorName.BAD_PARAMETER, "<sandbox> (-Dpatchgrade.sandbox) must be auto, required or off (found \""
                    + sandbox + "\")");
        }
        java.util.Properties userProperties = session == null ? new java.util.Properties() : session.getUserProperties();
        if (mode != SandboxSpec.Mode.OFF) {
            SandboxSettings.createAbsent(ModuleOracles.outputDirectories(project, reactor(), userProperties));
        }
        SandboxSettings sandboxSettings = new SandboxSettings(mode, ModuleOracles.ofReactor(project, reactor(), userProperties),
                project == null ? null : project.getBasedir().toPath(), paths(hiddenPaths), paths(readOnlyPaths), paths(writablePaths));
        return new GoalSettings(goal(), executionId, reportsDirectory.toPath(), buildDirectory.toPath().resolve("patchgrade"),
                workingDirectory.toPath(), environment).withSandbox(sandboxSettings).withModule(artifactId)
                .withSuggestions(MavenSuggestions.INSTANCE);
    }

    /** Every module of the reactor, those that {@code -pl} leaves out of this build too: their oracles are on the disk all the same. */
    private List<MavenProject> reactor() {
        if (session == null) {
            return List.of();
        }
        List<MavenProject> all = session.getAllProjects();
        return all != null ? all : session.getProjects();
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
        return GoalSettings.command(parameter, values);
    }

    /**
     * The console as core code sees it. Every line goes through {@link ConsoleText#safe}: excerpts of a candidate's
     * output are escaped where they are cut, and this catches any that reach a message some other way, before a
     * terminal or Jenkins' console obeys them.
     */
    protected GradeLog gradeLog() {
        return new GradeLog() {
            @Override
            public void info(String message) {
                getLog().info(ConsoleText.safe(message));
            }

            @Override
            public void warn(String message) {
                getLog().warn(ConsoleText.safe(message));
            }

            @Override
            public void debug(String message) {
                getLog().debug(ConsoleText.safe(message));
            }

            @Override
            public boolean verbose() {
                return verbose;
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
            throw new MojoExecutionException(ConsoleText.safe(result.error().errorName() + ": " + result.error().message(MavenSuggestions.INSTANCE)
                    + " (" + reports + ")"), result.error());
        }
        if (!result.failed()) {
            return;
        }
        StringBuilder message = new StringBuilder("patchgrade " + goal() + " (" + settings().executionId() + "): "
                + result.failures().size() + " graded item(s) broke an oracle, worst: " + result.worst() + "; " + reports);
        for (String failure : result.failures()) {
            message.append(System.lineSeparator()).append("  ").append(ConsoleText.safe(failure));
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
