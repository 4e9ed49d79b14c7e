package dev.patchgrade.maven;

import dev.patchgrade.core.coverage.PatchCoverageGoal;
import dev.patchgrade.core.grade.CaseRunner;
import dev.patchgrade.core.grade.GoalSettings;
import java.io.File;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Do the cases run the patch? Runs every case of a digest or three-column cases file on a coverage build of the
 * candidate (compiled and linked with {@code --coverage}), reads the counts with gcov, and reports for each C or C++
 * file that {@code git diff <base>} changed which of its added or modified lines ran, by which cases, and which never
 * ran. {@code minimumPercent} makes it a gate: a file whose share of changed executable lines that ran is below it fails.
 */
@Mojo(name = "patch-coverage", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true)
public class PatchCoverageMojo extends AbstractGradingMojo {

    /** The coverage build to run for every case, executable first (compiled and linked with --coverage); the case arguments are appended. */
    @Parameter(required = true)
    private List<String> command;

    /** The cases: a digest's (plain text, or JSON Lines) or a three-column execution's JSON Lines file. */
    @Parameter(property = "patchgrade.cases", defaultValue = "${project.basedir}/src/test/patchgrade/cases.txt", required = true)
    private File cases;

    /** The git revision the patch is measured against: its changed lines are those of git diff BASE. */
    @Parameter(property = "patchgrade.base", defaultValue = PatchCoverageGoal.DEFAULT_BASE)
    private String base;

    /** The directory whose changes count; by default the git work tree's top. */
    @Parameter
    private File sourceRoot;

    /** The gcov of the compiler that built the command: gcov (default), gcov-12, or llvm-cov gcov for clang; a list, or one string split on spaces. */
    @Parameter
    private List<String> gcov;

    /** The share of each changed file's executable lines that must run, in percent: 0 reports only, 100 asks for every line. */
    @Parameter(property = "patchgrade.minimumPercent", defaultValue = "0")
    private double minimumPercent;

    /** Wall-clock cap per case, in seconds; a coverage build runs slower than an optimised one, and a killed run writes no data. */
    @Parameter(property = "patchgrade.timeout", defaultValue = "5")
    private int timeout;

    /** Cases run at once; defaults to the number of cores. */
    @Parameter(property = "patchgrade.parallel")
    private Integer parallel;

    @Override
    protected String goal() {
        return "patch-coverage";
    }

    @Override
    protected void executeGoal(GoalSettings settings) throws MojoExecutionException, MojoFailureException {
        PatchCoverageGoal.Options options = PatchCoverageGoal.Options.builder(settings)
                .cases(path(cases))
                .command(list("command", command))
                .base(base)
                .sourceRoot(path(sourceRoot))
                .gcov(PatchCoverageGoal.gcovCommand(gcov == null ? null : list("gcov", gcov)))
                .minimumPercent(minimumPercent)
                .timeoutSeconds(timeout)
                .parallel(CaseRunner.workers(parallel))
                .build();
        conclude(settings, PatchCoverageGoal.grade(options, gradeLog()));
    }
}
