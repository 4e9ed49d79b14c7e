package dev.patchgrade.core.differential;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.patchgrade.core.cases.Case;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.report.ConsoleText;
import dev.patchgrade.core.report.FirstDifference;
import dev.patchgrade.core.report.JsonReports;
import dev.patchgrade.core.report.StderrTail;
import java.util.List;

/** How a differential case reads: the one-line message, an input cut for one line, the first line where the outputs part. */
final class DifferentialText {
    /** How much of an input's JSON a failure's body shows, and its one-line message. */
    private static final int INPUT_SHOWN = 200;
    private static final int MESSAGE_INPUT = 80;
    private static final ObjectWriter ONE_LINE = JsonReports.MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT);

    private DifferentialText() {}

    /** What a program that did not exit 0 last said on stderr, for the one-line message. */
    private static String said(String name, LaunchResult run) {
        String last = run.exitedZero() || !run.started() ? null : StderrTail.lastLine(run.stderr().excerpt());
        return last == null ? "" : "; " + name + " stderr: " + last;
    }

    /** One line with the numbers: both sides where they part, on the input shown, and what shrinking made of it. */
    static String message(DifferentialRow row) {
        LaunchResult reference = row.shownReference();
        LaunchResult candidate = row.shownCandidate();
        String sides;
        if (row.pattern() == DifferentialPattern.TIMEOUT || !reference.outcome().equals(candidate.outcome())) {
            sides = "reference " + reference.outcome() + ", candidate " + candidate.outcome() + said("reference", reference)
                    + said("candidate", candidate);
        } else {
            String r = reference.stdout().excerpt().strip();
            String c = candidate.stdout().excerpt().strip();
            int at = Math.max(0, FirstDifference.firstIndex(r, c));
            sides = "reference=" + FirstDifference.quote(r, at, FirstDifference.WIDTH) + " candidate=" + FirstDifference.quote(c, at, FirstDifference.WIDTH);
        }
        DifferentialRow.Shrunk shrunk = row.shrunk();
        String from = shrunk == null ? "" : shrunk.smaller(row.testCase())
                ? " (shrunk from " + input(row.testCase(), MESSAGE_INPUT) + " in " + shrunk.runPairs() + " run pair(s))"
                : " (no smaller input differs)";
        return sides + " on " + input(row.shown(), MESSAGE_INPUT) + from;
    }

    /** {@code args ["7"], stdin "1\n"}: the input as JSON strings, cut and escaped for one line. */
    static String input(Case c) {
        return input(c, INPUT_SHOWN);
    }

    /** @param width how many characters of each part's JSON are shown */
    static String input(Case c, int width) {
        String text = "args " + cut(json(c.args()), width);
        if (c.stdin() != null) {
            text += ", stdin " + cut(json(c.stdin()), width);
        }
        // JSON escapes the controls; what a console would still obey (bidi overrides, say) is escaped here.
        return ConsoleText.safe(text);
    }

    private static String cut(String text, int width) {
        if (text.length() <= width) {
            return text;
        }
        int end = Character.isLowSurrogate(text.charAt(width)) ? width - 1 : width;
        return text.substring(0, end) + "...(" + text.length() + " characters)";
    }

    private static String json(Object value) {
        try {
            return ONE_LINE.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The first line where the two outputs part, each side centred on where they part, or {@code null} where they agree line for line. */
    static String firstDifferingLine(String reference, String candidate) {
        List<String> r = FirstDifference.lines(reference);
        List<String> c = FirstDifference.lines(candidate);
        for (int i = 0; i < Math.max(r.size(), c.size()); i++) {
            String ri = i < r.size() ? r.get(i) : null;
            String ci = i < c.size() ? c.get(i) : null;
            if (ri != null && ri.equals(ci)) {
                continue;
            }
            int at = ri == null || ci == null ? 0 : Math.max(0, FirstDifference.firstIndex(ri, ci));
            return "first differing line " + (i + 1) + ": reference " + side(ri, at) + " | candidate " + side(ci, at);
        }
        return null;
    }

    private static String side(String line, int at) {
        return line == null ? "(no such line)" : FirstDifference.quote(line, at, FirstDifference.WIDTH);
    }
}
