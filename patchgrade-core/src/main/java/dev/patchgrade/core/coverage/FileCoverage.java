package dev.patchgrade.core.coverage;

import java.util.List;

/**
 * What the cases ran of one changed file.
 *
 * @param changed the added or modified lines, ascending
 * @param known whether gcov knows the file at all: a file no object of the coverage build was compiled from (or one
 *     with no code, declarations only) is not measured
 * @param executable the changed lines gcov knows as executable, ascending, each with what ran it
 */
public record FileCoverage(PatchDiff.FileChange change, List<Integer> changed, boolean known, List<LineRun> executable) {
    public FileCoverage {
        changed = List.copyOf(changed);
        executable = List.copyOf(executable);
    }

    /**
     * One changed executable line.
     *
     * @param count how often it ran, summed over the cases (and over every process of each case's tree)
     * @param cases how many cases ran it
     * @param firstCases the first {@link LineTally#CASES_NAMED} of them, in the cases file's order
     */
    public record LineRun(int line, long count, long cases, List<String> firstCases) {
        public LineRun {
            firstCases = List.copyOf(firstCases);
        }

        public boolean ran() {
            return count > 0;
        }
    }

    public String path() {
        return change.path();
    }

    public List<Integer> executableLines() {
        return executable.stream().map(LineRun::line).toList();
    }

    public List<Integer> run() {
        return executable.stream().filter(LineRun::ran).map(LineRun::line).toList();
    }

    public List<Integer> notRun() {
        return executable.stream().filter(line -> !line.ran()).map(LineRun::line).toList();
    }

    /** The share of the changed executable lines that ran, in percent; {@code null} where none is executable. */
    public Double percent() {
        return executable.isEmpty() ? null : run().size() * 100.0 / executable.size();
    }

    /**
     * Whether the file falls short of the gate: some changed line is executable and the share that ran is below
     * {@code minimumPercent}. A file with no changed executable line, or one gcov does not know, passes: there is
     * nothing the cases could have run.
     */
    public boolean below(double minimumPercent) {
        // Compared as counts, so that 100 asks for every line and no rounding lets one through.
        return !executable.isEmpty() && run().size() * 100.0 < minimumPercent * executable.size();
    }
}
