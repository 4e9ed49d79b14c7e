package dev.patchgrade.core.digest;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.cases.Case;
import dev.patchgrade.core.cases.CasesFile;
import dev.patchgrade.core.digest.DigestGoal.Options;
import dev.patchgrade.core.grade.BuildLock;
import dev.patchgrade.core.grade.CaseRunner;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.Setting;
import dev.patchgrade.core.host.Toolchain;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.launch.Launcher;
import dev.patchgrade.core.launch.Launchers;
import dev.patchgrade.core.report.ConsoleTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The {@code record-digest} goal: every case run on a known-good binary, its tuple written as gold. */
final class DigestRecording {
    private static final int TABLE_ROWS = 30;

    private DigestRecording() {}

    static List<DigestTuple> record(Options options, GradeLog log) {
        if (GoldStore.hasDigests(options.gold()) && !options.force()) {
            throw new PatchgradeException(ErrorName.REFUSED_OVERWRITE, options.gold() + " already holds gold digests and record-digest does not "
                    + "overwrite them. If the new behaviour is intended, re-run as `" + options.settings().rerecord("record-digest")
                    + "` (or set " + options.settings().suggestions().configured(Setting.FORCE.is("true")) + "); the whole "
                    + "directory is then replaced, and should be committed with the patch that changed the behaviour");
        }
        DigestGoal.validate(options);
        log.info("record-digest " + options.settings().executionId() + ": cases " + options.cases() + ", writing gold " + options.gold());
        List<Case> cases = CasesFile.read(options.cases(), false);
        String toolchain = toolchain(options);
        Normalizer normalizer = new Normalizer(options.normalize());
        List<DigestRun> runs;
        GoalSettings settings = options.settings();
        CaseRunner.requireWorkers(options.parallel());
        try (BuildLock lock = BuildLock.take(settings.outputDirectory());
                Launcher launcher = settings.openLauncher(log, List.of(options.cases(), options.gold()), settings.executablesOf(options.command()),
                        options.parallel())) {
            runs = CaseRunner.runAll(cases, options.parallel() * Launchers.CALLERS_PER_CHILD, c -> sampled(launcher, options, normalizer, c, log),
                    t -> false, log);
        }
        List<DigestTuple> tuples = runs.stream().map(DigestRun::tuple).toList();
        warnUnclean(options, tuples, log);
        warnProjectPath(options, normalizer, runs, log);
        Map<String, StreamExcerpts> excerpts = new LinkedHashMap<>();
        for (DigestRun run : runs) {
            LaunchResult launch = run.launch();
            if (options.goldExcerptBytes() > 0 && launch.started() && !launch.timedOut()) {
                excerpts.put(run.tuple().caseId(), new StreamExcerpts(StreamExcerpts.of(launch.stdout().file(), normalizer, options.goldExcerptBytes()),
                        StreamExcerpts.of(launch.stderr().file(), normalizer, options.goldExcerptBytes())));
            }
        }
        GoldStore.replace(options.gold(), tuples, toolchain, options.normalize(), excerpts);
        ConsoleTable table = new ConsoleTable("case", "exit", "stdout", "stderr", "sanitizer", "time");
        tuples.stream().limit(TABLE_ROWS).forEach(t -> table.row(CasesFile.printable(t.caseId()), String.valueOf(t.exit()), shortHash(t.stdoutSha256()),
                shortHash(t.stderrSha256()), t.sanitizer().wireName(), t.timeBucket() == null ? "off"
                        : t.timeBucket() + (t.timeMs() == null ? "" : " (" + t.timeMs() + " ms)")));
        log.info("Recorded " + tuples.size() + " gold digests in " + options.gold() + (toolchain == null ? "" : " (toolchain: " + toolchain + ")") + ":");
        table.lines().forEach(log::info);
        if (tuples.size() > TABLE_ROWS) {
            log.info("... and " + (tuples.size() - TABLE_ROWS) + " more");
        }
        return tuples;
    }

    /** One summary warning, not one a case: a build that is not sanitizer-clean says so once, with the cases. */
    private static void warnUnclean(Options options, List<DigestTuple> tuples, GradeLog log) {
        List<String> unclean = tuples.stream().filter(t -> t.sanitizer() != SanitizerClass.CLEAN)
                .map(t -> CasesFile.printable(t.caseId()) + " (" + t.sanitizer() + ")").toList();
        if (!unclean.isEmpty()) {
            log.warn(unclean.size() + " of " + tuples.size() + " case(s) were recorded with a sanitizer class other than clean: " + listed(unclean)
                    + ". The gold now expects exactly these outcomes: make sure the known-good build really behaves this way (a sanitizer "
                    + "report in a known-good build is usually a bug to fix, or a case to drop, before recording)");
        }
    }

    /** Output that names the checkout drifts when the checkout moves: say so while the gold is being made. */
    private static void warnProjectPath(Options options, Normalizer normalizer, List<DigestRun> runs, GradeLog log) {
        String basedir = options.settings().projectDirectory().toAbsolutePath().normalize().toString();
        List<String> naming = new ArrayList<>();
        for (DigestRun run : runs) {
            LaunchResult launch = run.launch();
            if (launch.started() && (normalizer.contains(launch.stdout().file(), basedir) || normalizer.contains(launch.stderr().file(), basedir))) {
                naming.add(CasesFile.printable(run.tuple().caseId()));
            }
        }
        if (!naming.isEmpty()) {
            log.warn("the recorded output of " + naming.size() + " case(s) contains the project's absolute path " + basedir + ": "
                    + listed(naming) + ". These digests will drift when the project is checked out elsewhere. Add the rule "
                    + options.settings().suggestions().configured(Setting.NORMALIZE_RULE.is(NormalizeRule.BASEDIR))
                    + " (it writes ${basedir} in place of the path), or run the command with "
                    + "relative paths, then re-record with `" + options.settings().rerecord("record-digest") + "`");
        }
    }

    private static String listed(List<String> items) {
        int shown = Math.min(items.size(), 20);
        return String.join(", ", items.subList(0, shown)) + (items.size() > shown ? " and " + (items.size() - shown) + " more" : "");
    }

    /**
     * A case recorded for the gold: its first run gives the tuple, and with time buckets on, {@code timeSamples}
     * runs in all give the time: the fastest, which load can only slow down, and its bucket.
     */
    private static DigestRun sampled(Launcher launcher, Options options, Normalizer normalizer, Case c, GradeLog log) {
        Path keep = DigestRun.streamPrefix(options.settings(), c);
        DigestRun first = DigestRun.measure(launcher, options, normalizer, c, keep);
        if (first.tuple().timeMs() == null) {
            return first;
        }
        long fastest = first.tuple().timeMs();
        DigestRun latest = first;
        for (int i = 1; i < options.timeSamples(); i++) {
            DigestRun again = DigestRun.measure(launcher, options, normalizer, c, keep);
            latest = again;
            if (again.tuple().timeMs() == null || !sameBehaviour(first.tuple(), again.tuple())) {
                log.warn("case " + CasesFile.printable(c.id()) + " behaved differently in time sample " + (i + 1) + " (" + again.tuple()
                        + ") than in the first (" + first.tuple() + "); its digest will not be stable: make the case deterministic");
                continue;
            }
            fastest = Math.min(fastest, again.tuple().timeMs());
        }
        // The kept streams are the latest sample's: the files the excerpts and warnings read.
        return new DigestRun(first.tuple().withTime(options.buckets().bucket(fastest), fastest), latest.launch());
    }

    private static boolean sameBehaviour(DigestTuple one, DigestTuple other) {
        return one.withTime(null, null).equals(other.withTime(null, null));
    }

    private static String shortHash(String hash) {
        return hash == null ? "null" : hash.substring(0, 12);
    }

    static String toolchain(Options options) {
        return options.compiler() == null || options.compiler().isBlank() ? null : Toolchain.identify(options.compiler());
    }
}
