package dev.patchgrade.core.differential;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Makes a differing case's input smaller by {@link DeltaDebugging} while it still differs: first the argument
 * list, then the lines of stdin, then the characters of stdin, then the characters of each argument, and again
 * from the start while a round cut something and the budget lasts. Coarse cuts come first because each saves the
 * tests a fine one would spend on what they remove.
 */
public final class InputShrinker {
    private InputShrinker() {}

    /**
     * A program's input as a case gives it.
     *
     * @param stdin the text fed on stdin, or {@code null} for none (never made up where the case gave none)
     */
    public record Input(List<String> args, String stdin) {
        public Input {
            args = List.copyOf(args);
        }

        /** How big the input is: its arguments, each at least one (an empty argument is still one), and the characters of stdin. */
        public long size() {
            long size = 0;
            for (String arg : args) {
                size += Math.max(1, arg.codePointCount(0, arg.length()));
            }
            return size + (stdin == null ? 0 : stdin.codePointCount(0, stdin.length()));
        }

        /** In words, for reports: {@code 2 argument(s), 14 character(s) of stdin}. */
        public String describe() {
            return args.size() + " argument(s)" + (stdin == null ? "" : ", " + stdin.codePointCount(0, stdin.length()) + " character(s) of stdin");
        }
    }

    /**
     * @param smallest the smallest input found that still differs (the original where nothing could go)
     * @param tests how many times the predicate ran: run pairs of the reference and the candidate
     * @param budgetSpent the budget ran out before the last cut was known to be the last
     */
    public record Shrunk(Input smallest, int tests, boolean budgetSpent) {}

    /**
     * @param original an input on which the programs differ (not tested again)
     * @param stillDiffers whether the programs still differ on an input
     * @param budget the most calls of {@code stillDiffers}
     */
    public static Shrunk shrink(Input original, Predicate<Input> stillDiffers, int budget) {
        int[] used = {0};
        Input current = original;
        boolean spent = false;
        boolean progress = true;
        while (progress && !spent) {
            progress = false;
            Input before = current;
            // The argument list.
            Input base = current;
            DeltaDebugging.Result<String> args = DeltaDebugging.minimize(base.args(), list -> stillDiffers.test(new Input(list, base.stdin())),
                    budget - used[0]);
            used[0] += args.tests();
            current = new Input(args.smallest(), current.stdin());
            spent = args.budgetSpent();
            if (!spent && current.stdin() != null) {
                // stdin by lines, each with its line feed, then by characters.
                Input lines = current;
                DeltaDebugging.Result<String> kept = DeltaDebugging.minimize(lines(lines.stdin()),
                        list -> stillDiffers.test(new Input(lines.args(), String.join("", list))), budget - used[0]);
                used[0] += kept.tests();
                current = new Input(current.args(), String.join("", kept.smallest()));
                spent = kept.budgetSpent();
                if (!spent) {
                    Input characters = current;
                    DeltaDebugging.Result<String> chars = DeltaDebugging.minimize(codePoints(characters.stdin()),
                            list -> stillDiffers.test(new Input(characters.args(), String.join("", list))), budget - used[0]);
                    used[0] += chars.tests();
                    current = new Input(current.args(), String.join("", chars.smallest()));
                    spent = chars.budgetSpent();
                }
            }
            for (int i = 0; i < current.args().size() && !spent; i++) {
                int index = i;
                Input word = current;
                DeltaDebugging.Result<String> chars = DeltaDebugging.minimize(codePoints(word.args().get(index)),
                        list -> stillDiffers.test(new Input(replaced(word.args(), index, String.join("", list)), word.stdin())), budget - used[0]);
                used[0] += chars.tests();
                current = new Input(replaced(current.args(), index, String.join("", chars.smallest())), current.stdin());
                spent = chars.budgetSpent();
            }
            // Every cut keeps a sub-sequence, so an input that changed is smaller: the rounds end.
            progress = !current.equals(before);
        }
        return new Shrunk(current, used[0], spent);
    }

    /** The lines of a text, each with its line feed; a last line without one is a line too. */
    static List<String> lines(String text) {
        List<String> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                lines.add(text.substring(start, i + 1));
                start = i + 1;
            }
        }
        if (start < text.length()) {
            lines.add(text.substring(start));
        }
        return lines;
    }

    /** The characters of a text as whole code points: a cut never leaves half a surrogate pair. */
    static List<String> codePoints(String text) {
        List<String> points = new ArrayList<>(text.length());
        text.codePoints().forEach(point -> points.add(new String(Character.toChars(point))));
        return points;
    }

    private static List<String> replaced(List<String> args, int index, String value) {
        List<String> copy = new ArrayList<>(args);
        copy.set(index, value);
        return copy;
    }
}
