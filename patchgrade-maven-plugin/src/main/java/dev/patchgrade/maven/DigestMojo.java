package dev.patchgrade.maven;

import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.digest.DigestGoal;
import dev.patchgrade.core.grade.GoalSettings;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Runs every case and compares its tuple (exit code, stdout and stderr SHA-256, sanitizer class,
 * time bucket) with the committed gold digests. Any drifting field fails the case.
 */
@Mojo(name = "digest", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true)
public class DigestMojo extends AbstractDigestMojo {

    /** Write the reports but do not fail the build when a case drifts. */
    @Parameter(property = "patchgrade.testFailureIgnore", defaultValue = "false")
    private boolean testFailureIgnore;

    /** Run only shard K of N (form K/N): the cases whose id hashes to K, so N agents split one grade. */
    @Parameter(property = "patchgrade.shard")
    private String shard;

    /**
     * Keep the full output streams and the candidate digest of every case (under target/patchgrade), not only of the cases
     * that drifted.
     */
    @Parameter(property = "patchgrade.keepAll", defaultValue = "false")
    private boolean keepAll;

    /**
     * Hysteresis of the time buckets: the fastest of the runs and reruns drifts only outside the gold bucket
     * widened by this factor (2: lt_500ms, 50-500 ms, drifts below 25 ms or from 1,000 ms on).
     */
    @Parameter(property = "patchgrade.timeBucketSlack", defaultValue = "2")
    private double timeBucketSlack;

    @Override
    protected double timeBucketSlack() {
        return timeBucketSlack;
    }

    @Override
    protected String goal() {
        return "digest";
    }

    @Override
    protected boolean honoursTestSwitches() {
        return true;
    }

    @Override
    protected void executeGoal(GoalSettings settings) throws MojoExecutionException, MojoFailureException {
        conclude(settings, DigestGoal.grade(options(settings, Shard.parse(shard), false).keepingAll(keepAll), gradeLog()), testFailureIgnore);
    }
}
