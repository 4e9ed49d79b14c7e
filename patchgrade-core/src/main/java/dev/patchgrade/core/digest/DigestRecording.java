package dev.patchgrade.core.digest;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.cases.Case;
import dev.patchgrade.core.cases.CaseSource;
import dev.patchgrade.core.cases.CasesFile;
import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.digest.DigestGoal.Options;
import dev.patchgrade.core.grade.BuildLock;
import dev.patchgrade.core.grade.CaseRunner;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.RecordingTarget;
import dev.patchgrade.core.host.Toolchain;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.launch.Launcher;
import dev.patchgrade.core.launch.Launchers;
import dev.patchgrade.core.report.ConsoleTable;
import dev.patchgrade.core.report.StderrTail;
import java.util.ArrayList;
import java.util.List;

/** The {@code record-digest} goal: every case run on a known-good binary, its tuple written as gold. */
final class DigestRecording {
    private static final int TABLE_ROWS = 30;
    private static final String INTENDED = "(the whole directory is then replaced) and commit it with the patch that changed the behaviour";

    private DigestRecording() {}

    static DigestGoal.Recorded record(Options options, GradeLog log) {
        RecordingTarget.refuseOverwrite(options.settings(), options.gold(), options.run().force(), true, "record-digest", INTENDED);
        DigestGoal.validate(options);
        log.info("record-digest " + options.settings().executionId() + ": cases " + options.run().cases() + ", writing gold " + options.gold());
        CaseSource cases = CasesFile.open(options.run().cases(), false, Shard.ALL);
        String toolchain = toolchain(options);
        Normalizer normalizer = new Normalizer(options.normalize());
        GoalSettings settings = options.settings();
        CaseRunner.requireWorkers(options.run().parallel());
        String basedir = settings.projectDirectory().toAbsolutePath().normalize().toString();
        Summary summary = new Summary();
        // Each case's file is written as it finishes, so only the summary's few facts outlive a case; the files go to a
        // sibling that replaces the old gold only once every case is written.
        GoldWriter writer = null;
        TimeBasis basis;
        try {
            try (BuildLock lock = BuildLock.take(settings.outputDirectory());
                    Launcher launcher = settings.openLauncher(log, List.of(options.run().cases(), options.gold()), dev.patchgrade.core.grade.RunInputs.of(options.command(),
                            () -> CasesFile.open(options.run().cases(), false, Shard.ALL)),
                            options.run().parallel())) {
                basis = DigestGoal.measurable(options.timeBasis(), launcher, options, log);
                GoldWriter into = GoldWriter.open(options.gold(), toolchain, options.normalize(), options.buckets().enabled() ? basis : null);
                writer = into;
                CaseRunner.forEach(cases, options.run().parallel() * Launchers.CALLERS_PER_CHILD,
                        c -> written(sampled(launcher, options, normalizer, c, basis, log), options, normalizer, basedir, into), r -> false,
                        summary::add, log);
            }
            warnUnclean(summary, log);
            refuseBroken(options, summary, log);
            warnProjectPath(options, basedir, summary, log);
            if (!writer.commit(options.run().force())) {
                throw RecordingTarget.appeared(options.settings(), options.gold(), "record-digest", INTENDED);
            }
        } finally {
            if (writer != null) {
                writer.close();
            }
        }
        ConsoleTable table = new ConsoleTable("case", "exit", "stdout", "stderr", "sanitizer", "time");
        summary.first.forEach(t -> table.row(CasesFile.printable(t.caseId()), String.valueOf(t.exit()), shortHash(t.stdoutSha256()),
                shortHash(t.stderrSha256()), t.sanitizer().wireName(), t.timeBucket() == null ? "off"
                        : t.timeBucket().label() + (t.timeMs() == null ? "" : " (" + t.timeMs() + " ms " + basis.wireName() + ")")));
        log.info("Recorded " + summary.count + " gold digests in " + options.gold() + (toolchain == null ? "" : " (toolchain: " + toolchain + ")") + ":");
        table.lines().forEach(log::info);
        if (summary.count > TABLE_ROWS) {
            log.info("... and " + (summary.count - TABLE_ROWS) + " more");
        }
        return new DigestGoal.Recorded(summary.count, List.copyOf(summary.first));
    }

    /**
     * What the summary needs of one recorded case, once its gold file is written and its streams are no longer read.
     *
     * @param broken how the run ended and the end of its stderr, where it did not run cleanly (a non-zero exit, a
     *     signal, a timeout, no output at all), else {@code null}
     */
    private record Written(DigestTuple tuple, boolean namesProject, String broken) {}

    /**
     * In the worker: the case's excerpts and project-path check, read from the streams the launcher holds (then let
     * go: recording keeps no stream files, only the gold), and its gold file.
     */
    private static Written written(DigestRun run, Options options, Normalizer normalizer, String basedir, GoldWriter writer) {
        LaunchResult launch = run.launch();
        try {
            StreamExcerpts excerpts = null;
            if (options.goldExcerptBytes() > 0 && launch.started() && !launch.timedOut()) {
                excerpts = new StreamExcerpts(StreamExcerpts.of(launch.stdout().file(), normalizer, options.goldExcerptBytes()),
                        StreamExcerpts.of(launch.stderr().file(), normalizer, options.goldExcerptBytes()));
            }
            boolean namesProject = launch.started()
                    && (normalizer.contains(launch.stdout().file(), basedir) || normalizer.contains(launch.stderr().file(), basedir));
            writer.write(run.tuple(), excerpts);
            return new Written(run.tuple(), namesProject, broken(launch, options));
        } finally {
            launch.released();
        }
    }

    /** A run that locks in nothing a team wants: it failed, or it printed nothing at all. Its stderr's end says why. */
    private static String broken(LaunchResult launch, Options options) {
        boolean silent = launch.started() && !launch.timedOut() && launch.stdout().bytes() == 0 && launch.stderr().bytes() == 0;
        if (launch.exitedZero() && !silent) {
            return null;
        }
        if (!launch.started()) {
            return launch.outcome();
        }
        String stderr = launch.stderr().excerpt();
        StringBuilder text = new StringBuilder(launch.outcome()).append(silent ? ", printed nothing on stdout or stderr" : StderrTail.of(stderr));
        for (String hint : options.settings().facts().hints(stderr, options.settings().suggestions())) {
            text.append("\n    hint: ").append(hint);
        }
        return text.toString();
    }

    /** The recorded cases as the summary shows them: counted, the first rows of the table, and the first few of each warning. */
    private static final class Summary {
        private static final int LISTED = 20;
        /** Each comes with the end of its stderr: a few say what went wrong, more bury it. */
        private static final int BROKEN_LISTED = 3;
        private long count;
        private final List<DigestTuple> first = new ArrayList<>();
        private final List<String> unclean = new ArrayList<>();
        private long uncleanCount;
        private final List<String> naming = new ArrayList<>();
        private long namingCount;
        private final List<String> broken = new ArrayList<>();
        private long brokenCount;

        void add(Written written) {
            DigestTuple t = written.tuple();
            count++;
            if (first.size() < TABLE_ROWS) {
                first.add(t);
            }
            if (t.sanitizer() != SanitizerClass.CLEAN && uncleanCount++ < LISTED) {
                unclean.add(CasesFile.printable(t.caseId()) + " (" + t.sanitizer() + ")");
            }
            if (written.namesProject() && namingCount++ < LISTED) {
                naming.add(CasesFile.printable(t.caseId()));
            }
            if (written.broken() != null && brokenCount++ < BROKEN_LISTED) {
                broken.add(CasesFile.printable(t.caseId()) + " (" + written.broken() + ")");
            }
        }
    }

    /** One summary warning, not one a case: a build that is not sanitizer-clean says so once, with the cases. */
    private static void warnUnclean(Summary summary, GradeLog log) {
        if (summary.uncleanCount > 0) {
            log.warn(summary.uncleanCount + " of " + summary.count + " case(s) were recorded with a sanitizer class other than clean: "
                    + listed(summary.unclean, summary.uncleanCount)
                    + ". The gold now expects exactly these outcomes: make sure the known-good build really behaves this way (a sanitizer "
                    + "report in a known-good build is usually a bug to fix, or a case to drop, before recording)");
        }
    }

    /**
     * Gold recorded from runs that mostly failed locks in the failure, and every later grade of a broken candidate
     * passes. Most cases failing on the known-good build is nearly always the setup (a sandbox that refuses a write,
     * a library the program cannot load), so it stops the recording unless {@code force} says the outcomes are meant.
     */
    private static void refuseBroken(Options options, Summary summary, GradeLog log) {
        if (summary.brokenCount * 2 <= summary.count) {
            return;
        }
        GoalSettings settings = options.settings();
        String what = summary.brokenCount + " of " + summary.count + " case(s) did not run cleanly on the known-good command "
                + String.join(" ", options.command()) + " (a non-zero exit, a signal, a timeout, or no output at all): "
                + String.join("; ", summary.broken) + (summary.brokenCount > summary.broken.size() ? "; and " + (summary.brokenCount
                        - summary.broken.size()) + " more" : "") + ".\nA gold recorded from these runs expects exactly these failures, so a "
                + "candidate that fails the same way passes.";
        if (options.run().force()) {
            log.warn(what + " They were recorded because " + settings.suggestions().configured(Setting.FORCE.is("true")) + " is set: make sure "
                    + "these outcomes are the known-good behaviour");
            return;
        }
        throw new PatchgradeException(ErrorName.BASELINE_FAILED, what + " Nothing was written. Fix the command or the cases (a hint "
                + "above says when the sandbox refused a path), or, if these outcomes are the known-good behaviour, record them with "
                + settings.suggestions().configured(Setting.FORCE.is("true")) + ": `" + settings.rerecord("record-digest") + "`");
    }

    /** Output that names the checkout drifts when the checkout moves: say so while the gold is being made. */
    private static void warnProjectPath(Options options, String basedir, Summary summary, GradeLog log) {
        if (summary.namingCount > 0) {
            log.warn("the recorded output of " + summary.namingCount + " case(s) contains the project's absolute path " + basedir + ": "
                    + listed(summary.naming, summary.namingCount) + ". These digests will drift when the project is checked out elsewhere. Add the rule "
                    + options.settings().suggestions().configured(Setting.NORMALIZE_RULE.is(NormalizeRule.BASEDIR))
                    + " (it writes ${basedir} in place of the path), or run the command with "
                    + "relative paths, then re-record with `" + options.settings().rerecord("record-digest") + "`");
        }
    }

    /** @param shown the first of {@code count} items */
    private static String listed(List<String> shown, long count) {
        return String.join(", ", shown) + (count > shown.size() ? " and " + (count - shown.size()) + " more" : "");
    }

    /**
     * A case recorded for the gold: its first run gives the tuple, and with time buckets on, {@code timeSamples}
     * runs in all give the time: the fastest, which load can only slow down, and its bucket.
     */
    private static DigestRun sampled(Launcher launcher, Options options, Normalizer normalizer, Case c, TimeBasis basis, GradeLog log) {
        DigestRun first = DigestRun.measure(launcher, options, normalizer, c, null, basis);
        if (first.tuple().timeMs() == null) {
            return first;
        }
        long fastest = first.tuple().timeMs();
        DigestRun latest = first;
        for (int i = 1; i < options.timeSamples(); i++) {
            DigestRun again = DigestRun.measure(launcher, options, normalizer, c, null, basis);
            latest.launch().released();
            latest = again;
            if (again.tuple().timeMs() == null || !sameBehaviour(first.tuple(), again.tuple())) {
                log.warn("case " + CasesFile.printable(c.id()) + " behaved differently in time sample " + (i + 1) + " (" + again.tuple()
                        + ") than in the first (" + first.tuple() + "); its digest will not be stable: make the case deterministic");
                continue;
            }
            fastest = Math.min(fastest, again.tuple().timeMs());
        }
        // The held streams are the latest sample's: what the excerpts and warnings read.
        return new DigestRun(first.tuple().withTime(options.buckets().bucket(fastest), fastest), latest.launch());
    }

    private static boolean sameBehaviour(DigestTuple one, DigestTuple other) {
        return one.withTime(null, null).equals(other.withTime(null, null));
    }

    private static String shortHash(String hash) {
        return hash == null ? "null" : hash.substring(0, 12);
    }

    static String toolchain(Options options) {
        return options.run().compiler() == null || options.run().compiler().isBlank() ? null : Toolchain.identify(options.run().compiler());
    }
}
