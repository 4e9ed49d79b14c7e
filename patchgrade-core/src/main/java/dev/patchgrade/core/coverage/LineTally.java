package dev.patchgrade.core.coverage;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The changed lines' counts summed over every case: for each changed file, each changed line gcov knows as
 * executable, how often it ran in all, in how many cases, and the first of those cases (in the cases file's order,
 * whatever order the cases finished in). Only the changed lines are kept, so a grade of 100,000 cases holds as much
 * as one of ten.
 */
final class LineTally {
    /** How many of the cases that ran a line the reports name; the number of all of them is given too. */
    static final int CASES_NAMED = 20;

    private final List<PatchDiff.FileChange> files;
    private final List<TreeSet<Integer>> changed = new ArrayList<>();
    private final boolean[] known;
    private final List<TreeMap<Integer, Line>> lines = new ArrayList<>();
    private long cases;

    /** One changed executable line so far. */
    static final class Line {
        long count;
        long cases;
        final TreeMap<Long, String> first = new TreeMap<>();

        /** The ids of the first cases that ran it, in case order. */
        List<String> firstCases() {
            return List.copyOf(first.values());
        }
    }

    /**
     * What one case ran of the changed lines.
     *
     * @param byFile for each changed file gcov knows (by its index in the diff), each of its changed lines gcov
     *     knows as executable, with how often the case ran it (0 included)
     */
    record CaseCounts(Map<Integer, Map<Integer, Long>> byFile) {
        static CaseCounts none() {
            return new CaseCounts(Map.of());
        }
    }

    LineTally(List<PatchDiff.FileChange> files) {
        this.files = List.copyOf(files);
        this.known = new boolean[files.size()];
        for (PatchDiff.FileChange file : files) {
            changed.add(file.changedLines());
            lines.add(new TreeMap<>());
        }
    }

    List<PatchDiff.FileChange> files() {
        return files;
    }

    /** The changed lines of file {@code index}, ascending. */
    TreeSet<Integer> changed(int index) {
        return changed.get(index);
    }

    /**
     * Adds one case's counts. Counts commute: the cases may come in any order and the tally is the same.
     *
     * @param ordinal the case's place in the cases file, which orders the cases each line names
     */
    synchronized void add(long ordinal, String caseId, CaseCounts counts) {
        cases++;
        counts.byFile().forEach((index, byLine) -> {
            known[index] = true;
            TreeMap<Integer, Line> fileLines = lines.get(index);
            byLine.forEach((number, count) -> {
                if (!changed.get(index).contains(number)) {
                    return;
                }
                Line line = fileLines.computeIfAbsent(number, n -> new Line());
                if (count > 0) {
                    line.count += count;
                    line.cases++;
                    line.first.put(ordinal, caseId);
                    if (line.first.size() > CASES_NAMED) {
                        line.first.pollLastEntry();
                    }
                }
            });
        });
    }

    /** Every file's coverage as it stands. */
    synchronized List<FileCoverage> result() {
        List<FileCoverage> result = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            List<FileCoverage.LineRun> executable = new ArrayList<>();
            lines.get(i).forEach((number, line) -> executable.add(new FileCoverage.LineRun(number, line.count, line.cases, line.firstCases())));
            result.add(new FileCoverage(files.get(i), List.copyOf(changed.get(i)), known[i], executable));
        }
        return result;
    }

    synchronized long cases() {
        return cases;
    }
}
