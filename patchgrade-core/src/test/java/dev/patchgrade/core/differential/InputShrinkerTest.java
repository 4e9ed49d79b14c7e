package dev.patchgrade.core.differential;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.differential.InputShrinker.Input;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** A case's input cut down by arguments, stdin lines, stdin characters and argument characters, against predicates that stand for two programs. */
class InputShrinkerTest {
    @Test
    void argumentsThatDoNotMatterGoAndTheOneThatDoesIsCutToTheCharacterThatDoes() {
        // Stands for tenths: the first argument's last digit rounds differently when it is 5 or more.
        Predicate<Input> differs = input -> !input.args().isEmpty() && input.args().get(0).matches("-?\\d*[5-9]");
        Input original = new Input(List.of("1237", "42", "-8"), null);
        InputShrinker.Shrunk shrunk = InputShrinker.shrink(original, differs, 200);
        assertThat(shrunk.smallest()).isEqualTo(new Input(List.of("7"), null));
        assertThat(shrunk.budgetSpent()).isFalse();
        assertThat(shrunk.smallest().size()).isLessThan(original.size());
    }

    @Test
    void stdinIsCutByLinesAndThenByCharacters() {
        // Differs while a line holds "x" somewhere on stdin.
        Predicate<Input> differs = input -> input.stdin() != null && input.stdin().contains("x");
        Input original = new Input(List.of("--quiet"), "alpha\nbeta\ngamma x delta\nepsilon\n");
        InputShrinker.Shrunk shrunk = InputShrinker.shrink(original, differs, 200);
        assertThat(shrunk.smallest()).isEqualTo(new Input(List.of(), "x"));
        assertThat(shrunk.budgetSpent()).isFalse();
    }

    @Test
    void aCaseWithoutStdinIsNeverGivenOne() {
        List<Input> asked = new ArrayList<>();
        InputShrinker.shrink(new Input(List.of("a", "b"), null), input -> {
            asked.add(input);
            return input.args().contains("b");
        }, 200);
        assertThat(asked).isNotEmpty().allSatisfy(input -> assertThat(input.stdin()).isNull());
    }

    @Test
    void nothingSmallerThatDiffersLeavesTheInputAsItWas() {
        Input original = new Input(List.of("9"), "1\n");
        InputShrinker.Shrunk shrunk = InputShrinker.shrink(original, input -> input.equals(original), 200);
        assertThat(shrunk.smallest()).isEqualTo(original);
        assertThat(shrunk.tests()).isPositive();
        assertThat(shrunk.budgetSpent()).isFalse();
    }

    @Test
    void theBudgetIsSharedByEveryPassAndNeverExceeded() {
        Predicate<Input> differs = input -> input.args().size() >= 3 && input.stdin() != null && input.stdin().length() >= 20;
        StringBuilder stdin = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            stdin.append("line ").append(i).append('\n');
        }
        List<String> args = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            args.add("arg" + i);
        }
        Input original = new Input(args, stdin.toString());
        for (int budget : new int[] {0, 1, 5, 17, 60, 200}) {
            int[] calls = {0};
            InputShrinker.Shrunk shrunk = InputShrinker.shrink(original, input -> {
                calls[0]++;
                return differs.test(input);
            }, budget);
            assertThat(calls[0]).as("budget " + budget).isLessThanOrEqualTo(budget).isEqualTo(shrunk.tests());
            assertThat(differs.test(shrunk.smallest())).as("budget " + budget + ": still differs").isTrue();
            assertThat(shrunk.smallest().size()).isLessThanOrEqualTo(original.size());
        }
    }

    @Test
    void charactersOutsideTheBasicPlaneAreCutWhole() {
        // "\uD83D\uDE00" is one code point: no try may hold half of it.
        List<String> seen = new ArrayList<>();
        InputShrinker.shrink(new Input(List.of("a\uD83D\uDE00b"), "\uD83D\uDE00\uD83D\uDE01"), input -> {
            seen.addAll(input.args());
            seen.add(input.stdin());
            return input.stdin() != null && input.stdin().contains("\uD83D\uDE01");
        }, 200);
        assertThat(seen).allSatisfy(text -> assertThat(text.codePoints().noneMatch(c -> Character.isSurrogate((char) c))).as(text).isTrue());
    }

    @Test
    void randomInputsShrinkToSomethingThatStillDiffersAndNoLargerWithinTheBudget() {
        Random random = new Random(7);
        for (int round = 0; round < 300; round++) {
            List<String> args = new ArrayList<>();
            for (int i = random.nextInt(6); i > 0; i--) {
                args.add(Integer.toString(random.nextInt(100_000)));
            }
            String stdin = random.nextBoolean() ? null : randomLines(random);
            Input original = new Input(args, stdin);
            char wanted = (char) ('0' + random.nextInt(10));
            Predicate<Input> differs = input -> (String.join(" ", input.args()) + (input.stdin() == null ? "" : input.stdin())).indexOf(wanted) >= 0;
            if (!differs.test(original)) {
                continue;
            }
            int budget = 1 + random.nextInt(60);
            int[] calls = {0};
            InputShrinker.Shrunk shrunk = InputShrinker.shrink(original, input -> {
                calls[0]++;
                return differs.test(input);
            }, budget);
            String context = "round " + round + ": " + original + " for '" + wanted + "'";
            assertThat(calls[0]).as(context).isLessThanOrEqualTo(budget);
            assertThat(differs.test(shrunk.smallest())).as(context).isTrue();
            assertThat(shrunk.smallest().size()).as(context).isLessThanOrEqualTo(original.size());
            if (!shrunk.budgetSpent()) {
                // The one character that matters, in one argument or on stdin, and nothing else.
                assertThat(shrunk.smallest().size()).as(context + " -> " + shrunk.smallest()).isEqualTo(1);
            }
        }
    }

    private static String randomLines(Random random) {
        StringBuilder text = new StringBuilder();
        for (int i = random.nextInt(5); i > 0; i--) {
            text.append(random.nextInt(1000)).append('\n');
        }
        return text.toString();
    }

    @Test
    void linesKeepTheirLineFeedsAndALastLineWithoutOne() {
        assertThat(InputShrinker.lines("a\nb\n")).containsExactly("a\n", "b\n");
        assertThat(InputShrinker.lines("a\n\nb")).containsExactly("a\n", "\n", "b");
        assertThat(InputShrinker.lines("")).isEmpty();
    }

    @Test
    void theSizeCountsEveryArgumentAndEveryCharacterOfStdin() {
        assertThat(new Input(List.of("12", ""), "abc").size()).isEqualTo(2 + 1 + 3);
        assertThat(new Input(List.of(), null).size()).isZero();
        assertThat(new Input(List.of("1"), "ab").describe()).isEqualTo("1 argument(s), 2 character(s) of stdin");
    }
}
