package dev.patchgrade.maven;

import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.digest.DigestGoal;
import dev.patchgrade.core.grade.GoalSettings;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Runs every case on a known-good binary and writes the gold digests, one JSON file per case.
 * Refuses a non-empty gold directory unless {@code force}; a forced recording replaces the whole directory.
 */
@Mojo(name = "record-digest", threadSafe = true)
public class RecordDigestMojo extends AbstractDigestMojo {

    /** Replace an existing gold directory (no stale case file survives). */
    @Parameter(property = "patchgrade.force", defaultValue = "false")
    private boolean force;

    /** Runs per case for its time: the fastest is recorded as time_ms, and its bucket as time_bucket. */
    @Parameter(property = "patchgrade.timeSamples", defaultValue = "3")
    private int timeSamples;

    @Override
    protected int timeSamples() {
        return timeSamples;
    }

    @Override
    protected String goal() {
        return "record-digest";
    }

    @Override
    protected void executeGoal(GoalSettings settings) {
        DigestGoal.record(options(settings, Shard.ALL, force), gradeLog());
    }
}
