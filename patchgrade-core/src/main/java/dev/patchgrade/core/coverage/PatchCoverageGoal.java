package dev.patchgrade.core.coverage;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.RunSettings;
import java.nio.file.Path;
import java.util.List;

/**
 * The {@code patch-coverage} goal, without Maven: do the cases run the lines the patch changed? Every case of a
 * digest or three-column cases file runs on a coverage build ({@code --coverage}) in the sandbox, its coverage data
 * going to a scratch directory of its own; gcov reads them; the added and modified lines of {@code git diff <base>}
 * in C and C++ files are each marked run (and by which cases) or never run. {@code minimumPercent} turns the report
 * into a gate per file.
 */
public final class PatchCoverageGoal {
    public static final String DEFAULT_BASE = "HEAD~1";
    public static final List<String> DEFAULT_GCOV = List.of("gcov");

    private PatchCoverageGoal() {}

    /**
     * Everything a {@code patch-coverage} execution is told.
     *
     * @param run the cases, parallelism and timeout
     * @param command the coverage build, executable first; the case arguments are appended
     * @param base the revision the patch is measured against
     * @param sourceRoot the directory whose changes count, or {@code null} for the git work tree's top
     * @param gcov the gcov to read the data with, e.g. {@code [gcov]} or {@code [llvm-cov, gcov]}
     * @param minimumPercent the share of each file's changed executable lines that must run (0: report only)
     */
    public record Options(GoalSettings settings, RunSettings run, List<String> command, String base, Path sourceRoot, List<String> gcov,
            double minimumPercent) {
        public Options {
            command = command == null ? List.of() : List.copyOf(command);
            gcov = gcov == null || gcov.isEmpty() ? DEFAULT_GCOV : List.copyOf(gcov);
            base = base == null || base.isBlank() ? DEFAULT_BASE : base.strip();
        }

        public static Builder builder(GoalSettings settings) {
            return new Builder(settings);
        }
    }

    /** Options with the documented defaults; {@code cases} and {@code command} have none. */
    public static final class Builder extends RunSettings.Builder<Builder> {
        private List<String> command;
        private String base = DEFAULT_BASE;
        private Path sourceRoot;
        private List<String> gcov = DEFAULT_GCOV;
        private double minimumPercent;

        private Builder(GoalSettings settings) {
            super(settings);
        }

        public Builder command(List<String> value) {
            command = value;
            return this;
        }

        public Builder base(String value) {
            base = value;
            return this;
        }

        public Builder sourceRoot(Path value) {
            sourceRoot = value;
            return this;
        }

        public Builder gcov(List<String> value) {
            gcov = value;
            return this;
        }

        public Builder minimumPercent(double value) {
            minimumPercent = value;
            return this;
        }

        public Options build() {
            return new Options(settings, run(), command, base, sourceRoot, gcov, minimumPercent);
        }
    }

    /** The {@code gcov} setting as a POM gives it: a list, or one string split on spaces ({@code llvm-cov gcov}). */
    public static List<String> gcovCommand(List<String> configured) {
        if (configured == null || configured.isEmpty()) {
            return DEFAULT_GCOV;
        }
        if (configured.size() == 1) {
            List<String> words = List.of(configured.get(0).strip().split("\\s+"));
            return words.size() == 1 && words.get(0).isEmpty() ? DEFAULT_GCOV : words;
        }
        return List.copyOf(configured);
    }

    public static GoalResult grade(Options options, GradeLog log) {
        return PatchCoverageGrading.grade(options, log);
    }

    static void validate(Options options) {
        if (options.command().isEmpty()) {
            throw PatchgradeException.badParameter(Setting.COMMAND, "is required: the coverage build (compiled and linked with --coverage) to run "
                    + "for every case, executable first");
        }
        if (options.run().cases() == null) {
            throw PatchgradeException.badParameter(Setting.CASES, "is required: the cases file of the digest or three-column execution whose "
                    + "cases are to run the patch");
        }
        if (options.run().timeoutSeconds() <= 0) {
            throw PatchgradeException.badParameter(Setting.TIMEOUT, "must be a positive number of seconds (found " + options.run().timeoutSeconds() + ")");
        }
        double minimum = options.minimumPercent();
        if (!(minimum >= 0 && minimum <= 100)) {
            throw PatchgradeException.badParameter(Setting.MINIMUM_PERCENT, "must be from 0 (report only) to 100 (every changed executable line "
                    + "must run) (found " + minimum + ")");
        }
    }
}
