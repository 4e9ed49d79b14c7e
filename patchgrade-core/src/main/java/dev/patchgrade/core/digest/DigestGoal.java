package dev.patchgrade.core.digest;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.RunSettings;
import dev.patchgrade.core.launch.Launcher;
import java.nio.file.Path;
import java.util.List;

/** The {@code record-digest} and {@code digest} goals, without Maven: their options and entry points. */
public final class DigestGoal {
    public static final int DEFAULT_TIME_SAMPLES = 3;

    private DigestGoal() {}

    /**
     * Everything a digest execution is told. Build one with {@link #builder}: the parameters have the
     * defaults the goals document, and a call names what it sets.
     *
     * @param run the cases, shard, parallelism, timeout, compiler, force and keepAll every goal shares
     */
    public record Options(GoalSettings settings, RunSettings run, Path gold, List<String> command, Sanitizer sanitizer, TimeBuckets buckets,
            int timeBucketReruns, List<NormalizeRule> normalize, int timeSamples, double timeBucketSlack, int goldExcerptBytes,
            TimeBasis timeBasis) {
        public Options {
            normalize = normalize == null ? List.of() : List.copyOf(normalize);
            timeBasis = timeBasis == null ? TimeBasis.CPU : timeBasis;
            if (goldExcerptBytes < 0) {
                throw PatchgradeException.badParameter(Setting.GOLD_EXCERPT_BYTES, "must be 0 (no excerpts) or more (found " + goldExcerptBytes + ")");
            }
        }

        public static Builder builder(GoalSettings settings) {
            return new Builder(settings);
        }

        /** These options, keeping the streams and candidate digest of every case, not only of those that drifted. */
        public Options keepingAll(boolean all) {
            return new Options(settings, run.keepingAll(all), gold, command, sanitizer, buckets, timeBucketReruns, normalize, timeSamples,
                    timeBucketSlack, goldExcerptBytes, timeBasis);
        }
    }

    /** Options with the documented defaults; {@code cases}, {@code gold} and {@code command} have none. */
    public static final class Builder extends RunSettings.Builder<Builder> {
        private Path gold;
        private List<String> command;
        private Sanitizer sanitizer = Sanitizer.NONE;
        private TimeBuckets buckets = TimeBuckets.parse(TimeBuckets.DEFAULT);
        private int timeBucketReruns = 3;
        private List<NormalizeRule> normalize = List.of();
        private int timeSamples = DEFAULT_TIME_SAMPLES;
        private double timeBucketSlack = TimeBuckets.DEFAULT_SLACK;
        private int goldExcerptBytes = StreamExcerpts.DEFAULT_BYTES;
        private TimeBasis timeBasis = TimeBasis.CPU;

        private Builder(GoalSettings settings) {
            super(settings);
        }

        public Builder gold(Path value) {
            gold = value;
            return this;
        }

        public Builder command(List<String> value) {
            command = value;
            return this;
        }

        public Builder sanitizer(Sanitizer value) {
            sanitizer = value;
            return this;
        }

        public Builder buckets(TimeBuckets value) {
            buckets = value;
            return this;
        }

        public Builder timeBucketReruns(int value) {
            timeBucketReruns = value;
            return this;
        }

        public Builder normalize(List<NormalizeRule> value) {
            normalize = value;
            return this;
        }

        public Builder timeSamples(int value) {
            timeSamples = value;
            return this;
        }

        public Builder timeBucketSlack(double value) {
            timeBucketSlack = value;
            return this;
        }

        public Builder goldExcerptBytes(int value) {
            goldExcerptBytes = value;
            return this;
        }

        /** What a time bucket measures when recording: CPU time (the default) or wall time. Grading takes the gold's. */
        public Builder timeBasis(TimeBasis value) {
            timeBasis = value;
            return this;
        }

        public Options build() {
            return new Options(settings, run(), gold, command, sanitizer, buckets, timeBucketReruns, normalize, timeSamples, timeBucketSlack,
                    goldExcerptBytes, timeBasis);
        }
    }

    /**
     * What a recording tells its caller: how many digests it wrote, and the first of them as the console table
     * shows them. Not every tuple: those are in the gold files, and a recording of 100,000 cases must not hold them.
     */
    public record Recorded(long count, List<DigestTuple> first) {}

    public static Recorded record(Options options, GradeLog log) {
        return DigestRecording.record(options, log);
    }

    public static GoalResult grade(Options options, GradeLog log) {
        return new DigestGrading(options).grade(log);
    }

    /** Where the candidate digests of the cases that drifted (of every case, with keepAll) are written. */
    public static Path candidateDirectory(GoalSettings settings) {
        return settings.outputDirectory().resolve("cand").resolve(settings.executionId());
    }

    /**
     * {@code wanted}, where {@code launcher} measures it; CPU time where it does not (no launch helper) is wall time, with
     * a warning: a bucket of CPU time that was never measured would be a guess.
     */
    static TimeBasis measurable(TimeBasis wanted, Launcher launcher, Options options, GradeLog log) {
        if (wanted != TimeBasis.CPU || !options.buckets().enabled() || launcher.measuresUsage()) {
            return wanted;
        }
        log.warn("the time buckets of " + options.settings().executionId() + " are taken from wall time, not from the CPU time "
                + options.settings().suggestions().configured(Setting.TIME_BASIS.is("cpu")) + " asks for: this launcher measures no CPU time "
                + "(the launch helper is unavailable; the warning above says why), and a busy machine moves wall time several times over");
        return TimeBasis.WALL;
    }

    static void validate(Options options) {
        if (options.command() == null || options.command().isEmpty()) {
            throw PatchgradeException.badParameter(Setting.COMMAND, "is required: the binary to run for every case, executable first");
        }
        if (options.run().timeoutSeconds() <= 0) {
            throw PatchgradeException.badParameter(Setting.TIMEOUT, "must be a positive number of seconds (found " + options.run().timeoutSeconds() + ")");
        }
        if (options.timeSamples() < 1) {
            throw PatchgradeException.badParameter(Setting.TIME_SAMPLES, "must be at least 1 (found " + options.timeSamples() + ")");
        }
        TimeBuckets.checkSlack(options.timeBucketSlack());
        if (options.timeBucketReruns() < 0) {
            throw PatchgradeException.badParameter(Setting.TIME_BUCKET_RERUNS, "must not be negative (found " + options.timeBucketReruns() + ")");
        }
    }

    /** A gold recorded with another compiler than this execution's is not graded: hashes churn with the compiler. */
    static void checkToolchain(Options options, GoldStore.Gold gold, GradeLog log) {
        GoalSettings settings = options.settings();
        String current = DigestRecording.toolchain(options);
        if (gold.toolchain() == null) {
            log.warn(options.gold() + " records no toolchain, so a compiler change cannot be told from a behaviour change; record with "
                    + settings.suggestions().setting(Setting.COMPILER) + " set to pin it");
            return;
        }
        if (current == null) {
            log.warn(options.gold() + " was recorded with \"" + gold.toolchain() + "\" but no " + settings.suggestions().setting(Setting.COMPILER)
                    + " is configured here to compare with");
            return;
        }
        if (!current.equals(gold.toolchain())) {
            throw new PatchgradeException(ErrorName.TOOLCHAIN_DRIFT, options.gold() + " was recorded with \"" + gold.toolchain() + "\" but "
                    + settings.suggestions().setting(Setting.COMPILER) + " " + options.run().compiler() + " is \"" + current + "\". A compiler change "
                    + "churns hashes that have nothing to do with the patch, "
                    + "so nothing was graded: build with the recorded compiler, or re-record the gold with this one and commit it");
        }
    }
}
