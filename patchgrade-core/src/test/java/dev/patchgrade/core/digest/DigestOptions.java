package dev.patchgrade.core.digest;

import dev.patchgrade.core.grade.GoalSettings;
import java.nio.file.Path;
import java.util.List;

/** Digest options as the tests set them: a 5 s cap, and no time buckets nor reruns unless a test sets its own. */
public final class DigestOptions {
    private DigestOptions() {}

    public static DigestGoal.Builder of(GoalSettings settings, Path cases, Path gold, List<String> command) {
        return DigestGoal.Options.builder(settings)
                .cases(cases)
                .gold(gold)
                .command(command)
                .timeoutSeconds(5)
                .buckets(TimeBuckets.OFF)
                .timeBucketReruns(0);
    }
}
