package dev.patchgrade.core.digest;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalSettings;
import java.nio.file.Path;
import java.util.List;

/** The {@code record-digest} and {@code digest} goals, without Maven: their options and entry points. */
public final class DigestGoal {
    public static final int DEFAULT_TIME_SAMPLES = 3;

    private DigestGoal() {}

    /**
     * @param keepAll keep the full streams and the candidate digest of every case; by default only of those that drifted
     */
    public record Options(GoalSettings settings, Path cases, Path gold, List<String> command, Sanitizer sanitizer, int timeoutSeconds,
            TimeBuckets buckets, int timeBucketReruns, String compiler, List<NormalizeRule> normalize, int parallel, Shard shard,
            boolean force, int timeSamples, double timeBucketSlack, int goldExcerptBytes, boolean keepAll) {
        public Options {
            normalize = normalize == null ? List.of() : List.copyOf(normalize);
            if (goldExcerptBytes < 0) {
                throw new PatchgradeException(ErrorName.BAD_PARAMETER, "<goldExcerptBytes> (patchgrade.goldExcerptBytes) must be 0 (no excerpts) or "
                        + "more (found " + goldExcerptBytes + ")");
            }
        }

        public Options(GoalSettings settings, Path cases, Path gold, List<String> command, Sanitizer sanitizer, int timeoutSeconds,
                TimeBuckets buckets, int timeBucketReruns, String compiler, List<NormalizeRule> normalize, int parallel, Shard shard,
                boolean force, int timeSamples, double timeBucketSlack, int goldExcerptBytes) {
            this(settings, cases, gold, command, sanitizer, timeoutSeconds, buckets, timeBucketReruns, compiler, normalize, parallel, shard,
                    force, timeSamples, timeBucketSlack, goldExcerptBytes, false);
        }

        /** These options, keeping the streams and candidate digest of every case, not only of those that drifted. */
        public Options keepingAll(boolean all) {
            return new Options(settings, cases, gold, command, sanitizer, timeoutSeconds, buckets, timeBucketReruns, compiler, normalize,
                    parallel, shard, force, timeSamples, timeBucketSlack, goldExcerptBytes, all);
        }

        /** Options with the default time samples, time slack and gold excerpts. */
        public Options(GoalSettings settings, Path cases, Path gold, List<String> command, Sanitizer sanitizer, int timeoutSeconds,
                TimeBuckets buckets, int timeBucketReruns, String compiler, List<NormalizeRule> normalize, int parallel, Shard shard,
                boolean force) {
            this(settings, cases, gold, command, sanitizer, timeoutSeconds, buckets, timeBucketReruns, compiler, normalize, parallel, shard,
                    force, DEFAULT_TIME_SAMPLES, TimeBuckets.DEFAULT_SLACK, StreamExcerpts.DEFAULT_BYTES);
        }

        /** Options with the default time samples and slack. */
        public Options(GoalSettings settings, Path cases, Path gold, List<String> command, Sanitizer sanitizer, int timeoutSeconds,
                TimeBuckets buckets, int timeBucketReruns, String compiler, List<NormalizeRule> normalize, int parallel, Shard shard,
                boolean force, int goldExcerptBytes) {
            this(settings, cases, gold, command, sanitizer, timeoutSeconds, buckets, timeBucketReruns, compiler, normalize, parallel, shard,
                    force, DEFAULT_TIME_SAMPLES, TimeBuckets.DEFAULT_SLACK, goldExcerptBytes);
        }

        /** Options with the default gold excerpts. */
        public Options(GoalSettings settings, Path cases, Path gold, List<String> command, Sanitizer sanitizer, int timeoutSeconds,
                TimeBuckets buckets, int timeBucketReruns, String compiler, List<NormalizeRule> normalize, int parallel, Shard shard,
                boolean force, int timeSamples, double timeBucketSlack) {
            this(settings, cases, gold, command, sanitizer, timeoutSeconds, buckets, timeBucketReruns, compiler, normalize, parallel, shard,
                    force, timeSamples, timeBucketSlack, StreamExcerpts.DEFAULT_BYTES);
        }
    }

    public static List<DigestTuple> record(Options options, GradeLog log) {
        return DigestRecording.record(options, log);
    }

    public static GoalResult grade(Options options, GradeLog log) {
        return new DigestGrading(options).grade(log);
    }

    /** Where the candidate digests of the cases that drifted (of every case, with keepAll) are written. */
    public static Path candidateDirectory(GoalSettings settings) {
        return settings.outputDirectory().resolve("cand").resolve(settings.executionId());
    }

    static void validate(Options options) {
        if (options.command() == null || options.command().isEmpty()) {
            throw new PatchgradeException(ErrorName.BAD_PARAMETER, "<command> is required: the binary to run for every case, executable first");
        }
        if (options.timeoutSeconds() <= 0) {
            throw new PatchgradeException(ErrorName.BAD_PARAMETER, "<timeout> must be a positive number of seconds (found " + options.timeoutSeconds() + ")");
        }
        if (options.timeSamples() < 1) {
            throw new PatchgradeException(ErrorName.BAD_PARAMETER, "<timeSamples> must be at least 1 (found " + options.timeSamples() + ")");
        }
        TimeBuckets.checkSlack(options.timeBucketSlack());
        if (options.timeBucketReruns() < 0) {
            throw new PatchgradeException(ErrorName.BAD_PARAMETER, "<timeBucketReruns> must not be negative (found " + options.timeBucketReruns() + ")");
        }
    }

}
