package dev.patchgrade.core.differential;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.classify.Comparison;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.RunSettings;
import java.nio.file.Path;
import java.util.List;

/**
 * The {@code differential} goal without Maven: the candidate graded against the frozen reference on inputs a
 * generator makes for this grade, each differing case cut down by delta debugging before it is reported.
 */
public final class DifferentialGoal {
    public static final int DEFAULT_COUNT = 200;
    /** The most extra run pairs (reference and candidate) that shrinking one differing case may spend. */
    public static final int SHRINK_BUDGET = 200;

    private DifferentialGoal() {}

    /**
     * What {@code differential} is told; build it with {@link #builder}.
     *
     * @param run the shard, parallelism, timeout and keepAll every goal shares (no cases file: the generator makes them)
     * @param referenceHome where the reference lives, shown to its runs and hidden from the candidate's and the
     *     generator's; {@code null} for its own directory, or its install prefix, as {@code three-column} hides it
     * @param generator the command that prints the cases, executable first
     * @param count what {@code PATCHGRADE_COUNT} asks the generator for
     * @param seed the seed, or {@code null} to draw one for this grade
     * @param shrinkBudget the most extra run pairs a differing case's shrinking may spend
     */
    public record Options(GoalSettings settings, RunSettings run, List<String> reference, List<String> candidate, Path referenceDigest,
            Path referenceHome, List<String> generator, int count, Seed seed, Comparison comparison, boolean shrink, int shrinkBudget) {}

    public static Builder builder(GoalSettings settings) {
        return new Builder(settings);
    }

    /** Options with the documented defaults; {@code reference}, {@code candidate}, {@code referenceDigest} and {@code generator} have none. */
    public static final class Builder extends RunSettings.Builder<Builder> {
        private List<String> reference;
        private List<String> candidate;
        private Path referenceDigest;
        private Path referenceHome;
        private List<String> generator;
        private int count = DEFAULT_COUNT;
        private Seed seed;
        private Comparison comparison = Comparison.parse("trim");
        private boolean shrink = true;
        private int shrinkBudget = SHRINK_BUDGET;

        private Builder(GoalSettings settings) {
            super(settings);
        }

        public Builder reference(List<String> value) {
            reference = value;
            return this;
        }

        public Builder candidate(List<String> value) {
            candidate = value;
            return this;
        }

        public Builder referenceDigest(Path value) {
            referenceDigest = value;
            return this;
        }

        public Builder referenceHome(Path value) {
            referenceHome = value;
            return this;
        }

        public Builder generator(List<String> value) {
            generator = value;
            return this;
        }

        public Builder count(int value) {
            count = value;
            return this;
        }

        public Builder seed(Seed value) {
            seed = value;
            return this;
        }

        public Builder comparison(Comparison value) {
            comparison = value;
            return this;
        }

        public Builder shrink(boolean value) {
            shrink = value;
            return this;
        }

        public Builder shrinkBudget(int value) {
            shrinkBudget = value;
            return this;
        }

        public Options build() {
            return new Options(settings, run(), reference, candidate, referenceDigest, referenceHome, generator, count, seed, comparison, shrink,
                    shrinkBudget);
        }
    }

    /** Grades with the configured seed, or with one drawn now: printed, and kept in every report. */
    public static GoalResult grade(Options options, GradeLog log) {
        return new DifferentialGrading(options, Seed.orDraw(options.seed())).grade(log);
    }

    public static Path feedbackFile(GoalSettings settings) {
        return settings.names().feedbackFile();
    }
}
