package dev.patchgrade.core.differential;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.cases.Case;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.launch.CapturedStream;
import dev.patchgrade.core.launch.LaunchRequest;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.launch.Launcher;
import dev.patchgrade.core.report.CaseOutcome;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a differential grade's generator: a child like every other, sandboxed, with {@code PATCHGRADE_SEED} and
 * {@code PATCHGRADE_COUNT} in its environment. It runs twice, and the two runs must print the same cases: a
 * generator that draws from the clock or {@code /dev/urandom} would make a reported seed reproduce nothing.
 */
final class Generator {
    static final String SEED_VARIABLE = "PATCHGRADE_SEED";
    static final String COUNT_VARIABLE = "PATCHGRADE_COUNT";
    /** The last lines of the generator's stderr that a failure shows. */
    private static final int STDERR_LINES = 10;

    private final GoalSettings settings;
    private final List<String> command;
    private final Seed seed;
    private final int count;
    private final Duration timeout;

    /** @param timeout the generator's wall-clock cap (one run) */
    Generator(GoalSettings settings, List<String> command, Seed seed, int count, Duration timeout) {
        this.settings = settings;
        this.command = List.copyOf(command);
        this.seed = seed;
        this.count = count;
        this.timeout = timeout;
    }

    /** The cases for the seed, the same in two runs, in the order printed. */
    List<Case> generate(Launcher launcher, GradeLog log) {
        List<Case> first = run(launcher, 1, log);
        List<Case> second = run(launcher, 2, log);
        String difference = GeneratorOutput.firstDifference(first, second);
        if (difference != null) {
            throw new PatchgradeException(ErrorName.GENERATOR_NOT_DETERMINISTIC, shown -> origin() + " printed other cases when run again with "
                    + "the same seed: " + difference + ". A seed must reproduce the cases exactly: draw every choice from " + SEED_VARIABLE
                    + " (a seeded generator of its own), never from the time, the process id, /dev/urandom or an unseeded $RANDOM or rand(), "
                    + "and print in a fixed order (not a hash map's). Fix " + shown.setting(Setting.GENERATOR) + " and check with `" + byHand()
                    + "` twice");
        }
        return first;
    }

    /** The environment the generator sees: the execution's, with the seed and the count. */
    LaunchRequest request(Path keep) {
        LaunchRequest base = settings.launchRequest(command, Map.of(), timeout);
        Map<String, String> environment = new HashMap<>(base.environment());
        // After the execution's own variables: an <environment> entry cannot make the seed a grade reports a lie.
        environment.put(SEED_VARIABLE, seed.toString());
        environment.put(COUNT_VARIABLE, Integer.toString(count));
        return base.withEnvironment(environment).keepingOutputAs(keep);
    }

    private List<Case> run(Launcher launcher, int run, GradeLog log) {
        Path keep = settings.streamsDirectory().resolve("~generator-" + run);
        LaunchResult result = settings.mustHaveStarted(launcher.launch(request(keep)), Setting.GENERATOR.parameter(), command);
        List<Path> files = List.of(result.stdout().file(), result.stderr().file());
        if (!result.exitedZero() || result.outputLimited()) {
            String stderr = lastLines(result.stderr().excerpt(), STDERR_LINES);
            String hints = settings.facts().hintText(result.stderr().excerpt(), log, settings.suggestions());
            throw new PatchgradeException(ErrorName.GENERATOR_FAILED, shown -> origin() + " " + ending(result) + (run > 1 ? " (its second run)" : "")
                    + (stderr.isEmpty() ? "; its stderr was empty" : "; its stderr ended with:\n" + stderr.indent(2).stripTrailing())
                    + hints + "\nFull streams: " + result.stdout().file() + ", " + result.stderr().file() + ". Run it by hand to see why: `"
                    + byHand() + "` (" + shown.setting(Setting.GENERATOR) + " names it)");
        }
        List<Case> cases;
        try (InputStream text = CapturedStream.open(result.stdout())) {
            cases = GeneratorOutput.parse(text, origin(), "The whole output is in " + result.stdout().file() + "; run `" + byHand()
                    + "` to see it, and print one JSON object a line on stdout (anything else on stderr)");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the generator's output " + result.stdout().file() + " back", e);
        }
        CaseOutcome.delete(files);
        return cases;
    }

    /** {@code the generator gen.sh 3 (seed 7, count 200)}, for messages. */
    String origin() {
        return "the generator `" + String.join(" ", command) + "` (seed " + seed + ", count " + count + ")";
    }

    /** The command line that runs the generator as the grade did, for a person to paste. */
    String byHand() {
        return SEED_VARIABLE + "=" + seed + " " + COUNT_VARIABLE + "=" + count + " " + String.join(" ", command);
    }

    private String ending(LaunchResult result) {
        if (result.timedOut()) {
            return "ran out of time (" + timeout.toSeconds() + " s)";
        }
        if (result.outputLimited()) {
            return "printed more than a stream may hold (" + (LaunchRequest.DEFAULT_OUTPUT_LIMIT >> 20) + " MiB)";
        }
        if (result.signal() != null) {
            return "was killed by " + result.signal();
        }
        return "exited with status " + result.exitCode();
    }

    /** The last {@code count} non-empty lines of a text. */
    static String lastLines(String text, int count) {
        List<String> lines = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (!line.isBlank()) {
                lines.add(line.stripTrailing());
            }
        }
        return String.join("\n", lines.subList(Math.max(0, lines.size() - count), lines.size()));
    }
}
