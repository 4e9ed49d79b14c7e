package dev.patchgrade.core.classify;

import dev.patchgrade.core.classify.ThreeColumnGrading.Row;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.report.FirstDifference;
import dev.patchgrade.core.report.StderrTail;
import java.util.List;
import java.util.Objects;

/** How a three-column row reads: the one-line message and the first line where the three outputs part. */
final class ThreeColumnText {
    private static final int MESSAGE_EXCERPT = FirstDifference.WIDTH;

    private ThreeColumnText() {}

    static String message(Row row) {
        if (row.pattern() == DriftPattern.TIMEOUT || row.pattern() == DriftPattern.NONZERO_EXIT) {
            int expected = row.testCase().expectExit();
            return "reference " + row.reference().outcome() + ", candidate " + row.candidate().outcome()
                    + (expected == 0 ? "" : " (expected exit " + expected + ")")
                    + said("reference", row.reference(), expected) + said("candidate", row.candidate(), expected);
        }
        String reference = row.reference().stdout().excerpt().strip();
        String candidate = row.candidate().stdout().excerpt().strip();
        String golden = row.testCase().golden().strip();
        int at = firstDifference(reference, candidate, golden);
        return "reference=" + quote(reference, at) + " candidate=" + quote(candidate, at) + " golden=" + quote(golden, at);
    }

    /** What a program that did not exit as expected last said on stderr: the loader's or the runtime's reason, on the console. */
    static String said(String name, LaunchResult run, int expectedExit) {
        boolean clean = run.started() && !run.timedOut() && run.exitCode() != null && run.exitCode() == expectedExit;
        String last = clean || !run.started() ? null : StderrTail.lastLine(run.stderr().excerpt());
        return last == null ? "" : "; " + name + " stderr: " + last;
    }

    static String differingLine(Row row) {
        if (row.pattern() == DriftPattern.TIMEOUT || row.pattern() == DriftPattern.NONZERO_EXIT) {
            return "";
        }
        String line = firstDifferingLine(row.reference().stdout().excerpt(), row.candidate().stdout().excerpt(), row.testCase().golden());
        return line == null ? "" : "\n" + line;
    }

    /** Where the first of the three texts parts from another, so that every excerpt shows that place. */
    static int firstDifference(String... texts) {
        int at = Integer.MAX_VALUE;
        for (int i = 0; i < texts.length; i++) {
            for (int j = i + 1; j < texts.length; j++) {
                int index = FirstDifference.firstIndex(texts[i], texts[j]);
                if (index >= 0) {
                    at = Math.min(at, index);
                }
            }
        }
        return at == Integer.MAX_VALUE ? 0 : at;
    }

    /**
     * The first line where the three outputs part, each side centred on where they part: the body's
     * full excerpts start at the beginning, and a difference far into a long line must still show.
     * {@code null} where the three agree line for line (a difference only in surrounding white space).
     */
    static String firstDifferingLine(String reference, String candidate, String golden) {
        List<String> r = FirstDifference.lines(reference);
        List<String> c = FirstDifference.lines(candidate);
        List<String> g = FirstDifference.lines(golden);
        int count = Math.max(r.size(), Math.max(c.size(), g.size()));
        for (int i = 0; i < count; i++) {
            String ri = i < r.size() ? r.get(i) : null;
            String ci = i < c.size() ? c.get(i) : null;
            String gi = i < g.size() ? g.get(i) : null;
            if (Objects.equals(ri, ci) && Objects.equals(ci, gi)) {
                continue;
            }
            int at = firstDifference(ri == null ? "" : ri, ci == null ? "" : ci, gi == null ? "" : gi);
            return "first differing line " + (i + 1) + ": reference " + lineSide(ri, at) + " | candidate " + lineSide(ci, at)
                    + " | golden " + lineSide(gi, at);
        }
        return null;
    }

    private static String lineSide(String line, int at) {
        return line == null ? "(no such line)" : quote(line, at);
    }

    private static String quote(String text, int at) {
        return FirstDifference.quote(text, at, MESSAGE_EXCERPT);
    }
}
