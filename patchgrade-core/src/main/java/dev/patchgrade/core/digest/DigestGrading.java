package dev.patchgrade.core.digest;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.cases.Case;
import dev.patchgrade.core.cases.CaseSource;
import dev.patchgrade.core.cases.CasesFile;
import dev.patchgrade.core.cases.IdSet;
import dev.patchgrade.core.digest.DigestGoal.Options;
import dev.patchgrade.core.grade.CaseGrading;
import dev.patchgrade.core.grade.GoalReporting;
import dev.patchgrade.core.grade.GoalRun;
import dev.patchgrade.core.launch.LaunchRequest;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.launch.Launcher;
import dev.patchgrade.core.launch.Launchers;
import dev.patchgrade.core.report.DigestSection;
import dev.patchgrade.core.report.FirstDifference;
import dev.patchgrade.core.report.SectionView;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** The {@code digest} goal's steps: the gold read and checked, each case run and judged against it. */
final class DigestGrading extends CaseGrading<Case, DigestRow, DigestResult> {
    private final Options options;
    private final Normalizer normalizer;
    /** Only the way back to each case's gold file: the ids of every case are not kept once checked. */
    private GoldStore.Lookup gold;
    private Launcher launcher;
    /** What the gold's times measure, so what the candidate's must: the gold's basis, not the configured one. */
    private TimeBasis goldBasis = TimeBasis.WALL;
    private String goldToolchain;
    private TimeBasis basis;
    private GradeLog log = GradeLog.SILENT;

    DigestGrading(Options options) {
        super(options.settings(), options.run().shard(), options.run().parallel(), "cases");
        this.options = options;
        this.normalizer = new Normalizer(options.normalize());
    }

    @Override
    protected void validate() {
        DigestGoal.validate(options);
    }

    @Override
    protected List<Path> oracles() {
        return List.of(options.run().cases(), options.gold());
    }

    @Override
    protected Collection<Case> prepare(GradeLog log) {
        log.info("digest " + settings.executionId() + ": cases " + options.run().cases() + ", gold " + options.gold());
        IdSet ids = new IdSet();
        CaseSource cases = CasesFile.open(options.run().cases(), false, options.run().shard(), ids);
        GoldStore.Gold gold = GoldStore.read(options.gold(), options.buckets(), settings.rerun("record-digest"), rerecord());
        checkCaseSet(ids, gold);
        DigestGoal.checkToolchain(options, gold, log);
        if (!gold.normalize().equals(options.normalize())) {
            throw new PatchgradeException(ErrorName.NORMALIZE_DRIFT, options.gold() + " was recorded with normalize rules " + describe(gold.normalize())
                    + " but this execution has " + describe(options.normalize()) + "; hashes under different filters cannot be compared. "
                    + "Use the recorded rules, or re-record with `" + rerecord() + "`");
        }
        checkTimeBasis(log, gold);
        goldToolchain = gold.toolchain();
        this.gold = gold.lookup();
        this.log = log;
        return cases;
    }

    /**
     * A CPU time and a wall time cannot be compared: the gold's times are graded on the basis they were recorded on,
     * and where that is not the configured one, once, a warning says so. A gold that names none was recorded before
     * there was a choice (or by hand), on wall time.
     */
    private void checkTimeBasis(GradeLog log, GoldStore.Gold gold) {
        if (!options.buckets().enabled()) {
            return;
        }
        goldBasis = gold.timeBasis() == null ? TimeBasis.WALL : gold.timeBasis();
        if (goldBasis == options.timeBasis()) {
            return;
        }
        String recorded = gold.timeBasis() == null ? "names no time_basis, so its times are wall times (recorded before timeBasis, or by hand)"
                : "was recorded with " + settings.suggestions().configured(Setting.TIME_BASIS.is(goldBasis.wireName()));
        log.warn(options.gold() + " " + recorded + ", while this execution has " + settings.suggestions().configured(Setting.TIME_BASIS.is(
                options.timeBasis().wireName())) + ": its time buckets are graded on " + goldBasis.describe() + " as recorded, since a CPU time "
                + "and a wall time cannot be compared" + (goldBasis == TimeBasis.WALL ? ". A busy machine moves wall time several times over; "
                        + "re-record the gold with `" + settings.rerun("record-digest", Setting.FORCE.is("true"), Setting.TIME_BASIS.is("cpu"))
                        + "` to grade CPU time" : ""));
    }

    /** The basis the cases are timed on: the gold's, where this launcher measures it. */
    private synchronized TimeBasis basis() {
        if (basis == null) {
            basis = DigestGoal.measurable(goldBasis, launcher, options, log);
        }
        return basis;
    }

    private String rerecord() {
        return settings.rerecord("record-digest");
    }

    @Override
    protected AutoCloseable openLaunchers(GradeLog log) {
        launcher = settings.openLauncher(log, oracles(), dev.patchgrade.core.grade.RunInputs.of(options.command(),
                () -> CasesFile.open(options.run().cases(), false, dev.patchgrade.core.cases.Shard.ALL)), options.run().parallel());
        return launcher;
    }

    @Override
    protected int callersPerWorker() {
        return Launchers.CALLERS_PER_CHILD;
    }

    @Override
    protected boolean failing(DigestRow row) {
        return row.failed();
    }

    @Override
    protected GoalReporting<DigestRow, DigestResult> reporting(GradeLog log) {
        TimeBasis reported = options.buckets().enabled() ? goldBasis : null;
        return new GoalReporting<>(new DigestTally(reported), new DigestJUnit(options, log), new DigestJson(options),
                List.of(CandidateDigests.cleared(options, goldToolchain, reported), new DigestConsole(options, log)));
    }

    @Override
    protected SectionView section() {
        return new DigestSection();
    }

    @Override
    protected Map<String, Object> errorHead(PatchgradeException error) {
        return GoalRun.head("goal", "digest", "execution", settings.executionId(), "verdict", "error");
    }

    /** By key first; the ids themselves are read again only to name the difference (or to find there is none after all). */
    private void checkCaseSet(IdSet keys, GoldStore.Gold gold) {
        if (keys.sameKeys(gold.keys())) {
            return;
        }
        Set<String> ids = new LinkedHashSet<>(CasesFile.ids(options.run().cases(), false));
        Set<String> recorded = gold.caseIds();
        List<String> added = ids.stream().filter(id -> !recorded.contains(id)).map(CasesFile::printable).toList();
        List<String> removed = recorded.stream().filter(id -> !ids.contains(id)).map(CasesFile::printable).toList();
        if (!added.isEmpty() || !removed.isEmpty()) {
            throw new PatchgradeException(ErrorName.CASE_SET_DRIFT, "the cases in " + options.run().cases() + " and the gold digests in " + options.gold()
                    + " differ: added " + added + ", removed " + removed + ". Nothing was graded. If the change is intended, re-record with "
                    + "`" + rerecord() + "` from a known-good build and commit both");
        }
    }

    @Override
    protected DigestRow gradeCase(Case c) {
        DigestTuple goldTuple = gold.tuple(c.id());
        // Held by the launcher until the verdict: only the streams of a case worth looking at become files of their own.
        TimeBasis basis = basis();
        DigestRun measured = DigestRun.measure(launcher, options, normalizer, c, null, basis);
        List<DigestTuple.Drift> drifts = behaviourDrifts(measured.tuple(), goldTuple);
        long fastest = DigestRun.time(measured.launch(), basis);
        int runs = 1;
        int reruns = 0;
        // A time alone out of its bucket may be a noisy neighbour: rerun, and fail only if even the fastest run stays out.
        while (drifts.isEmpty() && timeDrifts(goldTuple, measured.tuple().timeBucket(), fastest) && reruns < options.timeBucketReruns()) {
            reruns++;
            DigestRun again = DigestRun.measure(launcher, options, normalizer, c, null, basis);
            List<DigestTuple.Drift> againDrifts = behaviourDrifts(again.tuple(), goldTuple);
            if (!againDrifts.isEmpty()) {
                measured.launch().released();
                measured = again;
                drifts = againDrifts;
                fastest = DigestRun.time(again.launch(), basis);
                runs = 1;
                break;
            }
            runs++;
            if (DigestRun.time(again.launch(), basis) < fastest) {
                fastest = DigestRun.time(again.launch(), basis);
                measured.launch().released();
                measured = again;
            } else {
                again.launch().released();
            }
        }
        if (options.buckets().enabled() && !measured.launch().timedOut() && measured.launch().started()) {
            measured = new DigestRun(measured.tuple().withTime(options.buckets().bucket(fastest), fastest), measured.launch());
        }
        if (timeDrifts(goldTuple, measured.tuple().timeBucket(), fastest)) {
            drifts = new ArrayList<>(drifts);
            drifts.add(timeDrift(goldTuple, measured.tuple(), fastest, runs, basis));
        }
        LaunchResult launch = measured.launch();
        if (launch.outputLimited()) {
            // The hashes are of a truncated stream: say so first instead of letting them look like a behaviour change.
            List<DigestTuple.Drift> withCap = new ArrayList<>();
            withCap.add(new DigestTuple.Drift(DriftField.OUTPUT_LIMIT, "under " + LaunchRequest.DEFAULT_OUTPUT_LIMIT + " bytes per stream",
                    "stopped at the cap (stdout " + launch.stdout().bytes() + ", stderr " + launch.stderr().bytes() + " bytes)"));
            withCap.addAll(drifts);
            drifts = withCap;
        }
        List<FirstDifference.Line> lines = firstDifferences(c, drifts, launch);
        SanitizerClass found = measured.tuple().sanitizer();
        String finding = (found == SanitizerClass.ASAN || found == SanitizerClass.UBSAN) && launch.started()
                && drifts.stream().anyMatch(d -> d.field() == DriftField.SANITIZER) ? SanitizerFinding.of(launch.stderr().file()) : null;
        launch = !drifts.isEmpty() || options.run().keepAll() ? launch.keepOutputAs(DigestRun.streamPrefix(settings, c)) : launch.released();
        return new DigestRow(c, goldTuple, measured.tuple(), drifts, reruns, launch, lines, finding);
    }

    private List<FirstDifference.Line> firstDifferences(Case c, List<DigestTuple.Drift> drifts, LaunchResult launch) {
        List<FirstDifference.Line> lines = new ArrayList<>();
        boolean streamDrifts = drifts.stream().anyMatch(d -> d.field() == DriftField.STDOUT_SHA256 || d.field() == DriftField.STDERR_SHA256);
        // Read from the case's gold file only now: a passing case never needs its excerpts.
        StreamExcerpts excerpts = streamDrifts && launch.started() ? gold.excerpts(c.id()) : null;
        if (excerpts != null) {
            for (DigestTuple.Drift drift : drifts) {
                FirstDifference.Line line = switch (drift.field()) {
                    case STDOUT_SHA256 -> StreamExcerpts.firstDifference("stdout", excerpts.stdout(), launch.stdout().file(), normalizer);
                    case STDERR_SHA256 -> StreamExcerpts.firstDifference("stderr", excerpts.stderr(), launch.stderr().file(), normalizer);
                    default -> null;
                };
                if (line != null) {
                    lines.add(line);
                }
            }
        }
        return List.copyOf(lines);
    }

    /** Every drift but the time's: time has hysteresis and is judged on its own. */
    private static List<DigestTuple.Drift> behaviourDrifts(DigestTuple candidate, DigestTuple gold) {
        return candidate.driftFrom(gold).stream().filter(d -> d.field() != DriftField.TIME_BUCKET).toList();
    }

    /** Another bucket than the gold's, and (gold bucket widened by timeBucketSlack) still outside it. */
    private boolean timeDrifts(DigestTuple gold, TimeBucket bucket, long fastestMillis) {
        return options.buckets().enabled() && gold.timeBucket() != null && bucket != null && !bucket.equals(gold.timeBucket())
                && gold.timeBucket().outside(fastestMillis, options.timeBucketSlack());
    }

    private DigestTuple.Drift timeDrift(DigestTuple gold, DigestTuple candidate, long fastest, int runs, TimeBasis basis) {
        String limits = gold.timeBucket().widened(options.timeBucketSlack()).describe();
        String note = String.format(Locale.ROOT, "fastest %,d ms %s of %d run%s; %s widened by timeBucketSlack %s is %s", fastest,
                basis.wireName(), runs, runs == 1 ? "" : "s", gold.timeBucket().label(), trim(options.timeBucketSlack()), limits)
                + (gold.timeMs() == null ? "" : String.format(Locale.ROOT, "; gold fastest %,d ms", gold.timeMs()));
        return new DigestTuple.Drift(DriftField.TIME_BUCKET, gold.timeBucket(), candidate.timeBucket(), note);
    }

    private static String trim(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }

    private static String describe(List<NormalizeRule> rules) {
        return rules.isEmpty() ? "(none)" : rules.stream().map(NormalizeRule::describe).toList().toString();
    }
}
