package dev.patchgrade.core.coverage;

import dev.patchgrade.core.coverage.PatchCoverageGoal.Options;
import dev.patchgrade.core.grade.FailureLines;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.Tally;
import java.util.List;

/**
 * What one {@code patch-coverage} execution came to: every changed file's coverage and what the cases did, the
 * one result its reporters read. A file is a row.
 *
 * @param cases how many cases ran
 * @param timedOut the first {@link PatchCoverageGrading#CASES_NAMED} cases that timed out, of {@code timedOutCount}
 * @param withoutData the first {@link PatchCoverageGrading#CASES_NAMED} cases that wrote no coverage data, of {@code withoutDataCount}
 * @param seconds how long grading took, the suite's time
 */
record PatchCoverageResult(Options options, Git.Patch patch, Gcov gcov, List<FileCoverage> files, long cases, List<String> timedOut,
        long timedOutCount, List<String> withoutData, long withoutDataCount, double seconds) implements Tally.Result {
    /** The failure type of a file below {@code minimumPercent}, and the worst outcome of an execution with one. */
    static final String BELOW_MINIMUM = "lines_not_run";
    static final String PASS = "pass";

    PatchCoverageResult {
        files = List.copyOf(files);
        timedOut = List.copyOf(timedOut);
        withoutData = List.copyOf(withoutData);
    }

    boolean below(FileCoverage file) {
        return file.below(options.minimumPercent());
    }

    boolean passed() {
        return files.stream().noneMatch(this::below);
    }

    String worst() {
        return passed() ? PASS : BELOW_MINIMUM;
    }

    long executableLines() {
        return files.stream().mapToLong(f -> f.executable().size()).sum();
    }

    long runLines() {
        return files.stream().mapToLong(f -> f.run().size()).sum();
    }

    /** The share of every changed executable line that ran, in percent; {@code null} where none is executable. */
    Double percent() {
        long executable = executableLines();
        return executable == 0 ? null : runLines() * 100.0 / executable;
    }

    @Override
    public GoalResult goalResult() {
        FailureLines failures = new FailureLines();
        for (FileCoverage file : files) {
            if (below(file)) {
                failures.add(() -> file.path() + ": " + PatchCoverageText.failureMessage(file, options.minimumPercent()));
            }
        }
        return new GoalResult(failures.kept(), failures.count(), null, worst());
    }
}
