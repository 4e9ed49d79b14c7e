package dev.patchgrade.maven;

import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.classify.Comparison;
import dev.patchgrade.core.classify.ThreeColumnGoal;
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
 * Grades a frozen reference against the candidate and the committed golden text for every case,
 * and names each row by the pattern of the three comparisons. The reference's identity is checked
 * against its sidecar before any row runs.
 */
@Mojo(name = "three-column", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true)
public class ThreeColumnMojo extends AbstractGradingMojo {

    /** JSON Lines cases: id, args, golden (expected stdout), optional stdin. */
    @Parameter(property = "patchgrade.cases", defaultValue = "${project.basedir}/src/test/patchgrade/cases.jsonl", required = true)
    private File cases;

    /** The frozen reference command, executable first. */
    @Parameter(required = true)
    private List<String> reference;

    /** The candidate command, executable first. */
    @Parameter(required = true)
    private List<String> candidate;

    /**
     * The directory holding the reference's own files (its executable, libraries, script and data): shown to the
     * reference's runs, hidden from the candidate's. Default: the executable's directory, or its install prefix
     * where that directory is {@code bin}.
     */
    @Parameter
    private File referenceHome;

    /** The reference's SHA-256 sidecar, in sha256sum format (see freeze-reference). */
    @Parameter(property = "patchgrade.referenceDigest", defaultValue = "${project.basedir}/src/test/patchgrade/reference.sha256", required = true)
    private File referenceDigest;

    /** The equality rule for all three comparisons: trim, exact, ulp:N or abs:EPS. */
    @Parameter(property = "patchgrade.comparison", defaultValue = "trim")
    private String comparison;

    /** Wall-clock cap per binary and case, in seconds. */
    @Parameter(property = "patchgrade.timeout", defaultValue = "5")
    private int timeout;

    /** Rows run at once; defaults to the number of cores. */
    @Parameter(property = "patchgrade.parallel")
    private Integer parallel;

    /** Run only shard K of N (form K/N): the cases whose id hashes to K, so N agents split one grade. */
    @Parameter(property = "patchgrade.shard")
    private String shard;

    /** Keep the full output streams of every row under target/patchgrade/streams, not only of the rows that did not pass. */
    @Parameter(property = "patchgrade.keepAll", defaultValue = "false")
    private boolean keepAll;

    @Override
    protected String goal() {
        return "three-column";
    }

    @Override
    protected void executeGoal(GoalSettings settings) throws MojoExecutionException, MojoFailureException {
        conclude(settings, ThreeColumnGoal.grade(ThreeColumnGoal.builder(settings)
                .cases(path(cases))
                .reference(list("reference", reference))
                .candidate(list("candidate", candidate))
                .referenceDigest(path(referenceDigest))
                .referenceHome(path(referenceHome))
                .comparison(Comparison.parse(comparison))
                .timeoutSeconds(timeout)
                .parallel(CaseRunner.workers(parallel))
                .shard(Shard.parse(shard))
                .keepAll(keepAll)
                .build(), gradeLog()));
    }
}
