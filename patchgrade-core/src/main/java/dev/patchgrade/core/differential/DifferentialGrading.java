package dev.patchgrade.core.differential;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.cases.Case;
import dev.patchgrade.core.classify.ReferenceHome;
import dev.patchgrade.core.classify.ReferenceLaunchers;
import dev.patchgrade.core.classify.ThreeColumnGoal;
import dev.patchgrade.core.differential.DifferentialGoal.Options;
import dev.patchgrade.core.digest.SafeNames;
import dev.patchgrade.core.grade.CaseGrading;
import dev.patchgrade.core.grade.GoalReporting;
import dev.patchgrade.core.grade.GoalRun;
import dev.patchgrade.core.grade.RunInputs;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.launch.Launcher;
import dev.patchgrade.core.launch.Launchers;
import dev.patchgrade.core.report.DifferentialSection;
import dev.patchgrade.core.report.SectionView;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The {@code differential} goal's steps: the reference checked against its sidecar, the generator run (twice, to
 * see it prints the same cases for the seed), then every generated case of the shard run on both binaries,
 * compared on stdout and exit status, and each differing case shrunk.
 */
final class DifferentialGrading extends CaseGrading<Case, DifferentialRow, DifferentialResult> {
    private static final String WHY_FROZEN = "a reference that changed is no longer the behaviour the candidate must keep";

    private final Options options;
    private final Seed seed;
    private long generatedCount;
    private ReferenceHome referenceFiles;
    private List<Case> graded = List.of();
    private Path referenceBinary;
    private ReferenceLaunchers launchers;

    DifferentialGrading(Options options, Seed seed) {
        super(options.settings(), options.run().shard(), options.run().parallel(), "cases");
        this.options = options;
        this.seed = seed;
    }

    @Override
    protected void validate() {
        if (options.reference() == null || options.reference().isEmpty()) {
            throw PatchgradeException.badParameter(Setting.REFERENCE, "is required: the frozen reference binary, executable first");
        }
        if (options.candidate() == null || options.candidate().isEmpty()) {
            throw PatchgradeException.badParameter(Setting.CANDIDATE, "is required: the binary built from the patch, executable first");
        }
        if (options.generator() == null || options.generator().isEmpty()) {
            throw PatchgradeException.badParameter(Setting.GENERATOR, "is required: the command that prints the cases for "
                    + Generator.SEED_VARIABLE + " as JSON Lines, executable first");
        }
        if (options.run().timeoutSeconds() <= 0) {
            throw PatchgradeException.badParameter(Setting.TIMEOUT, "must be a positive number of seconds (found " + options.run().timeoutSeconds() + ")");
        }
        if (options.count() < 1) {
            throw PatchgradeException.badParameter(Setting.COUNT, "must be at least 1 (found " + options.count() + "): how many cases to ask the generator for");
        }
        if (options.shrinkBudget() < 0) {
            throw new IllegalArgumentException("the shrink budget must not be negative, was " + options.shrinkBudget());
        }
        referenceFiles = ThreeColumnGoal.referenceHome(settings, options.reference(), options.referenceHome());
        referenceBinary = referenceFiles.executable();
    }

    /** The generator's own files: its program where it is not the system's, and the files its command names. */
    private List<Path> generatorFiles() {
        List<Path> files = new ArrayList<>(RunInputs.named(options.generator().subList(1, options.generator().size()), settings.workingDirectory()));
        settings.executablesOf(options.generator()).stream().filter(program -> !ReferenceHome.system(real(program))).forEach(files::add);
        return files;
    }

    private static Path real(Path path) {
        try {
            return path.toRealPath();
        } catch (IOException e) {
            return path.toAbsolutePath().normalize();
        }
    }

    @Override
    protected List<Path> oracles() {
        List<Path> oracles = new ArrayList<>(List.of(options.referenceDigest()));
        oracles.addAll(referenceFiles.frozen());
        // The generator decides what is graded: changed during the grade, it would have graded something else.
        oracles.addAll(generatorFiles());
        return oracles;
    }

    @Override
    protected Map<String, String> properties() {
        return Map.of("patchgrade.seed", seed.toString());
    }

    @Override
    protected Collection<Case> prepare(GradeLog log) {
        log.info("differential " + settings.executionId() + ": seed " + seed + (seed.given() ? " (given)" : " (drawn for this build; reproduce with "
                + settings.suggestions().once(Setting.SEED.is(seed.toString())) + ")") + ", " + options.count() + " case(s) from "
                + String.join(" ", options.generator()) + ", reference sidecar " + options.referenceDigest());
        if (!options.run().shard().all() && !seed.given()) {
            log.warn("differential " + settings.executionId() + " runs " + options.run().shard().label() + " with a seed drawn here: every agent draws "
                    + "its own and grades a share of other cases. Give every shard the same seed, "
                    + settings.suggestions().once(Setting.SEED.is("<build number>")) + ", so that together they grade one set");
        }
        // The worst pattern stops the grade before anything runs, the generator included: an error named after it, as SPEC says.
        ThreeColumnGoal.requireFrozen(settings, options.referenceDigest(), referenceFiles, WHY_FROZEN);
        List<Case> generated;
        Generator generator = new Generator(settings, options.generator(), seed, options.count(), generatorTimeout());
        try (Launcher launcher = openGeneratorLauncher(log)) {
            generated = generator.generate(launcher, log);
        }
        if (generated.size() != options.count()) {
            log.warn(generator.origin() + " printed " + generated.size() + " case(s), not the " + options.count() + " " + Generator.COUNT_VARIABLE
                    + " asked for: all are graded");
        }
        generatedCount = generated.size();
        List<Case> selected = generated.stream().filter(c -> options.run().shard().selects(c.id())).toList();
        graded = selected;
        log.info("differential " + settings.executionId() + ": " + generated.size() + " case(s) generated"
                + (options.run().shard().all() ? "" : ", " + selected.size() + " of them in " + options.run().shard().label()));
        return selected;
    }

    /** A generator writes its cases out and is done: a minute, or ten times a case's timeout where that is longer. */
    private Duration generatorTimeout() {
        return Duration.ofSeconds(Math.max(60, 10L * options.run().timeoutSeconds()));
    }

    /**
     * The reference's and the candidate's launchers, each shown what its runs are given (the generated cases' arguments
     * among it): the reference's home is shown to its runs and hidden from the candidate's, as in {@code three-column},
     * and so are the sidecar and the generator's own files.
     */
    @Override
    protected AutoCloseable openLaunchers(GradeLog log) {
        // Each at most parallel children at once, and twice as many callers (callersPerWorker): a case's next run is
        // queued on a helper while the run before it ends.
        launchers = ReferenceLaunchers.open(settings, log, referenceFiles, options.reference(), options.candidate(), () -> graded,
                List.of(options.referenceDigest()), generatorFiles(), options.run().parallel());
        return launchers;
    }

    @Override
    protected int callersPerWorker() {
        return Launchers.CALLERS_PER_CHILD;
    }

    /** The generator is a child like the candidate: it sees what the candidate may see, and its own program and script. */
    private Launcher openGeneratorLauncher(GradeLog log) {
        List<Path> hidden = new ArrayList<>(List.of(options.referenceDigest()));
        Path program = settings.executablesOf(options.generator()).stream().findFirst().orElse(null);
        hidden.addAll(referenceFiles.hiddenFromCandidate(program, settings.workingDirectory(), log));
        return settings.openLauncher(log, hidden, RunInputs.of(options.generator()).showingAlso(generatorFiles()));
    }


    @Override
    protected DifferentialRow gradeCase(Case c) {
        String stem = SafeNames.stem(c.id());
        Pair pair = runPair(c);
        DifferentialPattern pattern = DifferentialPattern.of(options.comparison(), pair.reference(), pair.candidate());
        // Held until now: only what people look at becomes a file (most cases agree, and their streams never leave scratch).
        Pair shown = !pattern.passed() || options.run().keepAll() ? pair.keep(settings.streamsDirectory(), stem) : pair.release();
        DifferentialRow.Shrunk shrunk = pattern == DifferentialPattern.CANDIDATE_DIFFERS && options.shrink() ? shrink(c, stem, shown) : null;
        return new DifferentialRow(c, shown.reference(), shown.candidate(), pattern, shrunk);
    }

    /** The reference's and the candidate's run on one input, their output held in the launchers' scratch or kept as files. */
    record Pair(LaunchResult reference, LaunchResult candidate) {
        Pair keep(Path directory, String name) {
            return new Pair(reference.keepOutputAs(directory.resolve(name + ".reference")), candidate.keepOutputAs(directory.resolve(name + ".candidate")));
        }

        Pair release() {
            return new Pair(reference.released(), candidate.released());
        }
    }

    private Pair runPair(Case c) {
        LaunchResult reference = run(launchers.reference(), options.reference(), c, "reference");
        try {
            return new Pair(reference, run(launchers.candidate(), options.candidate(), c, "candidate"));
        } catch (RuntimeException e) {
            reference.released();
            throw e;
        }
    }

    /**
     * Cuts the case down while the two still differ. Each try's output is held while it is the smallest so far and let
     * go when a smaller one replaces it or when it did not differ; the last one kept becomes files beside the case's.
     */
    private DifferentialRow.Shrunk shrink(Case c, String stem, Pair original) {
        Pair[] best = {null};
        Case[] smallest = {c};
        InputShrinker.Shrunk shrunk = InputShrinker.shrink(new InputShrinker.Input(c.args(), c.stdin()), input -> {
            Case trial = new Case(c.id(), input.args(), input.stdin(), null, c.line());
            Pair pair = runPair(trial);
            boolean differs;
            try {
                differs = DifferentialPattern.of(options.comparison(), pair.reference(), pair.candidate()) == DifferentialPattern.CANDIDATE_DIFFERS;
            } catch (RuntimeException e) {
                pair.release();
                throw e;
            }
            if (differs) {
                if (best[0] != null) {
                    best[0].release();
                }
                best[0] = pair;
                smallest[0] = trial;
            } else {
                pair.release();
            }
            return differs;
        }, options.shrinkBudget());
        if (best[0] == null) {
            return new DifferentialRow.Shrunk(c, original.reference(), original.candidate(), shrunk.tests(), shrunk.budgetSpent());
        }
        // The smallest input is the last one that differed: each was smaller than the one before. '~' and a word no
        // hashed stem ends with: no other case's stream files have these names.
        Pair kept = best[0].keep(settings.streamsDirectory(), stem + "~smallest");
        return new DifferentialRow.Shrunk(smallest[0], kept.reference(), kept.candidate(), shrunk.tests(), shrunk.budgetSpent());
    }

    private LaunchResult run(Launcher launcher, List<String> command, Case c, String parameter) {
        // Only the case's arguments and stdin reach a binary: never the seed, never the other binary's output.
        Duration timeout = Duration.ofSeconds(options.run().timeoutSeconds());
        return settings.mustHaveStarted(launcher.launch(c.applyTo(settings.launchRequest(command, Map.of(), timeout), settings.workingDirectory(),
                timeout).holdingOutput()), parameter, command);
    }

    @Override
    protected boolean failing(DifferentialRow row) {
        return !row.pattern().passed();
    }

    @Override
    protected GoalReporting<DifferentialRow, DifferentialResult> reporting(GradeLog log) {
        return new GoalReporting<>(new DifferentialTally(generatedCount), new DifferentialJUnit(options, seed, log), new DifferentialJson(options, seed),
                List.of(new DifferentialFiles(options, seed), new DifferentialConsole(options, seed, log)));
    }

    @Override
    protected SectionView section() {
        return new DifferentialSection();
    }

    @Override
    protected Map<String, Object> errorHead(PatchgradeException error) {
        return GoalRun.head("goal", "differential", "execution", settings.executionId(), "verdict", "error", "worst", error.errorName(),
                "seed", seed.value(), "seed_given", seed.given(), "count", options.count());
    }
}
