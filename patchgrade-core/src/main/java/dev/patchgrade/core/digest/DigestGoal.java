package dev.patchgrade.core.digest;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.cases.Case;
import dev.patchgrade.core.cases.CasesFile;
import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.grade.BuildLock;
import dev.patchgrade.core.grade.CaseRunner;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.OracleGuard;
import dev.patchgrade.core.grade.Reports;
import dev.patchgrade.core.host.Toolchain;
import dev.patchgrade.core.launch.LaunchRequest;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.launch.Launcher;
import dev.patchgrade.core.report.ConsoleTable;
import dev.patchgrade.core.report.FirstDifference;
import dev.patchgrade.core.report.JsonReports;
import dev.patchgrade.core.report.TestCaseReport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** The {@code record-digest} and {@code digest} goals, without Maven. */
public final class DigestGoal {
    static final String UBSAN_OPTIONS = "print_stacktrace=1:halt_on_error=1";
    static final String ASAN_OPTIONS = "halt_on_error=1:detect_leaks=1";
    private static final int TABLE_ROWS = 30;

    private DigestGoal() {}

    public record Options(GoalSettings settings, Path cases, Path gold, List<String> command, Sanitizer sanitizer, int timeoutSeconds,
            TimeBuckets buckets, int timeBucketReruns, String compiler, List<NormalizeRule> normalize, int parallel, Shard shard,
            boolean force, int timeSamples, double timeBucketSlack, int goldExcerptBytes) {
        public Options {
            normalize = normalize == null ? List.of() : List.copyOf(normalize);
            if (goldExcerptBytes < 0) {
                throw new PatchgradeException("bad_parameter", "<goldExcerptBytes> (patchgrade.goldExcerptBytes) must be 0 (no excerpts) or "
                        + "more (found " + goldExcerptBytes + ")");
            }
        }

        /** Options with the default time samples, time slack and gold excerpts. */
        public Options(GoalSettings settings, Path cases, Path gold, List<String> command, Sanitizer sanitizer, int timeoutSeconds,
                TimeBuckets buckets, int timeBucketReruns, String compiler, List<NormalizeRule> normalize, int parallel, Shard shard,
                boolean force) {
            this(settings, cases, gold, command, sanitizer, timeoutSeconds, buckets, timeBucketReruns, compiler, normalize, parallel, shard,
                    force, DEFAULT_TIME_SAMPLES, TimeBuckets.DEFAULT_SLACK, StreamExcerpts.DEFAULT_BYTES);
        }

        /** Options with the default time samples and slack. */
        public Options(GoalSettings settings, Path cases, Path gold, List<String> command, Sanitizer sanitizer, int timeoutSeconds,
                TimeBuckets buckets, int timeBucketReruns, String compiler, List<NormalizeRule> normalize, int parallel, Shard shard,
                boolean force, int goldExcerptBytes) {
            this(settings, cases, gold, command, sanitizer, timeoutSeconds, buckets, timeBucketReruns, compiler, normalize, parallel, shard,
                    force, DEFAULT_TIME_SAMPLES, TimeBuckets.DEFAULT_SLACK, goldExcerptBytes);
        }

        /** Options with the default gold excerpts. */
        public Options(GoalSettings settings, Path cases, Path gold, List<String> command, Sanitizer sanitizer, int timeoutSeconds,
                TimeBuckets buckets, int timeBucketReruns, String compiler, List<NormalizeRule> normalize, int parallel, Shard shard,
                boolean force, int timeSamples, double timeBucketSlack) {
            this(settings, cases, gold, command, sanitizer, timeoutSeconds, buckets, timeBucketReruns, compiler, normalize, parallel, shard,
                    force, timeSamples, timeBucketSlack, StreamExcerpts.DEFAULT_BYTES);
        }
    }

    public static final int DEFAULT_TIME_SAMPLES = 3;

    /**
     * One graded case: the candidate's tuple, the drift from gold, how many reruns the time bucket took,
     * and the first differing line of each drifting stream whose gold keeps an excerpt.
     */
    record Row(Case testCase, DigestTuple gold, DigestTuple candidate, List<DigestTuple.Drift> drifts, int reruns, LaunchResult launch,
            List<FirstDifference.Line> lines) {
        boolean failed() {
            return !drifts.isEmpty();
        }
    }

    public static List<DigestTuple> record(Options options, GradeLog log) {
        if (GoldStore.hasDigests(options.gold()) && !options.force()) {
            throw new PatchgradeException("refused_overwrite", options.gold() + " already holds gold digests and record-digest does not "
                    + "overwrite them. If the new behaviour is intended, re-run as `" + options.settings().hint("record-digest", "-Dpatchgrade.force=true")
                    + "` (or set <force>true</force>); the whole "
                    + "directory is then replaced, and should be committed with the patch that changed the behaviour");
        }
        validate(options);
        log.info("record-digest " + options.settings().executionId() + ": cases " + options.cases() + ", writing gold " + options.gold());
        List<Case> cases = CasesFile.read(options.cases(), false);
        String toolchain = toolchain(options);
        Normalizer normalizer = new Normalizer(options.normalize());
        List<Measured> runs;
        GoalSettings settings = options.settings();
        try (BuildLock lock = BuildLock.take(settings.outputDirectory());
                Launcher launcher = settings.openLauncher(log, List.of(options.cases(), options.gold()), settings.executablesOf(options.command()))) {
            runs = CaseRunner.runAll(cases, options.parallel(), c -> sampled(launcher, options, normalizer, c, log), t -> false, log);
        }
        List<DigestTuple> tuples = runs.stream().map(Measured::tuple).toList();
        warnUnclean(options, tuples, log);
        warnProjectPath(options, normalizer, runs, log);
        Map<String, StreamExcerpts> excerpts = new LinkedHashMap<>();
        for (Measured run : runs) {
            LaunchResult launch = run.launch();
            if (options.goldExcerptBytes() > 0 && launch.started() && !launch.timedOut()) {
                excerpts.put(run.tuple().caseId(), new StreamExcerpts(StreamExcerpts.of(launch.stdout().file(), normalizer, options.goldExcerptBytes()),
                        StreamExcerpts.of(launch.stderr().file(), normalizer, options.goldExcerptBytes())));
            }
        }
        GoldStore.replace(options.gold(), tuples, toolchain, options.normalize(), excerpts);
        ConsoleTable table = new ConsoleTable("case", "exit", "stdout", "stderr", "sanitizer", "time");
        tuples.stream().limit(TABLE_ROWS).forEach(t -> table.row(CasesFile.printable(t.caseId()), String.valueOf(t.exit()), shortHash(t.stdoutSha256()),
                shortHash(t.stderrSha256()), t.sanitizer(), t.timeBucket() == null ? "off"
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
        List<String> unclean = tuples.stream().filter(t -> !"clean".equals(t.sanitizer()))
                .map(t -> CasesFile.printable(t.caseId()) + " (" + t.sanitizer() + ")").toList();
        if (!unclean.isEmpty()) {
            log.warn(unclean.size() + " of " + tuples.size() + " case(s) were recorded with a sanitizer class other than clean: " + listed(unclean)
                    + ". The gold now expects exactly these outcomes: make sure the known-good build really behaves this way (a sanitizer "
                    + "report in a known-good build is usually a bug to fix, or a case to drop, before recording)");
        }
    }

    /** Output that names the checkout drifts when the checkout moves: say so while the gold is being made. */
    private static void warnProjectPath(Options options, Normalizer normalizer, List<Measured> runs, GradeLog log) {
        String basedir = options.settings().projectDirectory().toAbsolutePath().normalize().toString();
        List<String> naming = new ArrayList<>();
        for (Measured run : runs) {
            LaunchResult launch = run.launch();
            if (launch.started() && (normalizer.contains(launch.stdout().file(), basedir) || normalizer.contains(launch.stderr().file(), basedir))) {
                naming.add(CasesFile.printable(run.tuple().caseId()));
            }
        }
        if (!naming.isEmpty()) {
            log.warn("the recorded output of " + naming.size() + " case(s) contains the project's absolute path " + basedir + ": "
                    + listed(naming) + ". These digests will drift when the project is checked out elsewhere. Add the rule "
                    + "<normalize><rule>basedir</rule></normalize> (it writes ${basedir} in place of the path), or run the command with "
                    + "relative paths, then re-record with `" + options.settings().hint("record-digest", "-Dpatchgrade.force=true") + "`");
        }
    }

    private static String listed(List<String> items) {
        int shown = Math.min(items.size(), 20);
        return String.join(", ", items.subList(0, shown)) + (items.size() > shown ? " and " + (items.size() - shown) + " more" : "");
    }

    public static GoalResult grade(Options options, GradeLog log) {
        GoalSettings settings = options.settings();
        return Reports.grade(settings, settings.suiteName(options.shard()), e -> Map.of("goal", "digest", "execution", settings.executionId(), "verdict", "error"), log, () -> gradeAndReport(options, log));
    }

    private static GoalResult gradeAndReport(Options options, GradeLog log) {
        GoalSettings settings = options.settings();
        long started = System.nanoTime();
        validate(options);
        log.info("digest " + settings.executionId() + ": cases " + options.cases() + ", gold " + options.gold());
        OracleGuard guard = OracleGuard.snapshot(List.of(options.cases(), options.gold()));
        List<Case> cases = CasesFile.read(options.cases(), false);
        GoldStore.Gold gold = GoldStore.read(options.gold(), options.buckets(), settings.hint("record-digest", "-Dpatchgrade.force=true"));
        checkCaseSet(options, cases, gold);
        checkToolchain(options, gold, log);
        if (!gold.normalize().equals(options.normalize())) {
            throw new PatchgradeException("normalize_drift", options.gold() + " was recorded with normalize rules " + describe(gold.normalize())
                    + " but this execution has " + describe(options.normalize()) + "; hashes under different filters cannot be compared. "
                    + "Use the recorded rules, or re-record with `" + settings.hint("record-digest", "-Dpatchgrade.force=true") + "`");
        }
        List<Case> selected = options.shard().select(cases);
        Normalizer normalizer = new Normalizer(options.normalize());
        List<Row> rows;
        try (Launcher launcher = settings.openLauncher(log, List.of(options.cases(), options.gold()), settings.executablesOf(options.command()))) {
            rows = CaseRunner.runAll(selected, options.parallel(),
                    c -> gradeCase(launcher, options, normalizer, c, gold.tuples().get(c.id()), gold.excerpts().get(c.id())), Row::failed, log);
        }
        guard.verifyUnchanged();
        double seconds = (System.nanoTime() - started) / 1e9;
        GoldStore.replace(candidateDirectory(settings), rows.stream().map(Row::candidate).toList(), gold.toolchain(), options.normalize());
        writeReports(options, rows, seconds, log);
        printTable(log, options, rows);
        List<String> failures = rows.stream().filter(Row::failed)
                .map(r -> CasesFile.printable(r.testCase().id()) + ": " + message(r)).toList();
        return new GoalResult(failures, null, worst(rows));
    }

    /** The most severe failure type of the rows: a truncated stream first, then the order the tuple's fields are reported in. */
    static String worst(List<Row> rows) {
        return rows.stream().filter(Row::failed).map(r -> r.drifts().get(0).field())
                .min(java.util.Comparator.comparingInt(field -> field.equals("output_limit") ? -1 : DigestTuple.FIELDS.indexOf(field)))
                .orElse("pass");
    }

    public static Path candidateDirectory(GoalSettings settings) {
        return settings.outputDirectory().resolve("cand").resolve(settings.executionId());
    }

    private static void validate(Options options) {
        if (options.command() == null || options.command().isEmpty()) {
            throw new PatchgradeException("bad_parameter", "<command> is required: the binary to run for every case, executable first");
        }
        if (options.timeoutSeconds() <= 0) {
            throw new PatchgradeException("bad_parameter", "<timeout> must be a positive number of seconds (found " + options.timeoutSeconds() + ")");
        }
        if (options.timeSamples() < 1) {
            throw new PatchgradeException("bad_parameter", "<timeSamples> must be at least 1 (found " + options.timeSamples() + ")");
        }
        TimeBuckets.checkSlack(options.timeBucketSlack());
        if (options.timeBucketReruns() < 0) {
            throw new PatchgradeException("bad_parameter", "<timeBucketReruns> must not be negative (found " + options.timeBucketReruns() + ")");
        }
    }

    private static void checkCaseSet(Options options, List<Case> cases, GoldStore.Gold gold) {
        Set<String> ids = new LinkedHashSet<>();
        cases.forEach(c -> ids.add(c.id()));
        List<String> added = ids.stream().filter(id -> !gold.tuples().containsKey(id)).map(CasesFile::printable).toList();
        List<String> removed = gold.tuples().keySet().stream().filter(id -> !ids.contains(id)).map(CasesFile::printable).toList();
        if (!added.isEmpty() || !removed.isEmpty()) {
            throw new PatchgradeException("case_set_drift", "the cases in " + options.cases() + " and the gold digests in " + options.gold()
                    + " differ: added " + added + ", removed " + removed + ". Nothing was graded. If the change is intended, re-record with "
                    + "`" + options.settings().hint("record-digest", "-Dpatchgrade.force=true") + "` from a known-good build and commit both");
        }
    }

    private static void checkToolchain(Options options, GoldStore.Gold gold, GradeLog log) {
        String current = toolchain(options);
        if (gold.toolchain() == null) {
            log.warn(options.gold() + " records no toolchain, so a compiler change cannot be told from a behaviour change; record with "
                    + "<compiler> set to pin it");
            return;
        }
        if (current == null) {
            log.warn(options.gold() + " was recorded with \"" + gold.toolchain() + "\" but no <compiler> is configured here to compare with");
            return;
        }
        if (!current.equals(gold.toolchain())) {
            throw new PatchgradeException("toolchain_drift", options.gold() + " was recorded with \"" + gold.toolchain() + "\" but <compiler> "
                    + options.compiler() + " is \"" + current + "\". A compiler change churns hashes that have nothing to do with the patch, "
                    + "so nothing was graded: build with the recorded compiler, or re-record the gold with this one and commit it");
        }
    }

    private static String toolchain(Options options) {
        return options.compiler() == null || options.compiler().isBlank() ? null : Toolchain.identify(options.compiler());
    }

    /** One run of one case and what it measured. */
    record Measured(DigestTuple tuple, LaunchResult launch) {}

    static Measured measure(Launcher launcher, Options options, Normalizer normalizer, Case c, Path keep) {
        // Set in <environment>, the user's sanitizer options win over these.
        Map<String, String> sanitizerOptions = options.sanitizer() == Sanitizer.NONE ? Map.of()
                : Map.of("UBSAN_OPTIONS", UBSAN_OPTIONS, "ASAN_OPTIONS", ASAN_OPTIONS);
        Duration timeout = Duration.ofSeconds(options.timeoutSeconds());
        LaunchRequest request = c.applyTo(options.settings().launchRequest(options.command(), sanitizerOptions, timeout),
                options.settings().workingDirectory(), timeout).keepingOutputAs(keep);
        LaunchResult result = launcher.launch(request);
        if (!result.started()) {
            if (options.sanitizer() == Sanitizer.NONE) {
                GoalSettings.mustHaveStarted(result, "command", options.command());
            }
            // A sanitizer build that is missing or cannot run proves nothing, and must never look clean.
            return new Measured(new DigestTuple(c.id(), null, null, null, SanitizerClass.UNAVAILABLE.wireName(), options.buckets().bucket(0)), result);
        }
        if (result.timedOut()) {
            return new Measured(new DigestTuple(c.id(), null, null, null, SanitizerClass.TIMEOUT.wireName(), options.buckets().last()), result);
        }
        SanitizerClass.Markers markers = options.sanitizer() == Sanitizer.NONE ? SanitizerClass.Markers.NONE
                : SanitizerClass.Markers.scan(result.stderr().file());
        Integer exit = result.exitCode() != null ? result.exitCode() : result.signalNumber() != null ? -result.signalNumber() : null;
        String stdoutSha = normalizer.active() ? normalizer.sha256(result.stdout().file()) : result.stdout().sha256();
        String stderrSha = normalizer.active() ? normalizer.sha256(result.stderr().file()) : result.stderr().sha256();
        return new Measured(new DigestTuple(c.id(), exit, stdoutSha, stderrSha, SanitizerClass.classify(result, markers).wireName(),
                options.buckets().bucket(result.loadFreeMillis()), options.buckets().enabled() ? result.loadFreeMillis() : null), result);
    }

    /**
     * A case recorded for the gold: its first run gives the tuple, and with time buckets on, {@code timeSamples}
     * runs in all give the time: the fastest, which load can only slow down, and its bucket.
     */
    private static Measured sampled(Launcher launcher, Options options, Normalizer normalizer, Case c, GradeLog log) {
        Path keep = streamPrefix(options.settings(), c);
        Measured first = measure(launcher, options, normalizer, c, keep);
        if (first.tuple().timeMs() == null) {
            return first;
        }
        long fastest = first.tuple().timeMs();
        Measured latest = first;
        for (int i = 1; i < options.timeSamples(); i++) {
            Measured again = measure(launcher, options, normalizer, c, keep);
            latest = again;
            if (again.tuple().timeMs() == null || !sameBehaviour(first.tuple(), again.tuple())) {
                log.warn("case " + CasesFile.printable(c.id()) + " behaved differently in time sample " + (i + 1) + " (" + again.tuple()
                        + ") than in the first (" + first.tuple() + "); its digest will not be stable: make the case deterministic");
                continue;
            }
            fastest = Math.min(fastest, again.tuple().timeMs());
        }
        // The kept streams are the latest sample's: the files the excerpts and warnings read.
        return new Measured(first.tuple().withTime(options.buckets().bucket(fastest), fastest), latest.launch());
    }

    private static boolean sameBehaviour(DigestTuple one, DigestTuple other) {
        return one.withTime(null, null).equals(other.withTime(null, null));
    }

    private static Row gradeCase(Launcher launcher, Options options, Normalizer normalizer, Case c, DigestTuple gold, StreamExcerpts excerpts) {
        Path keep = streamPrefix(options.settings(), c);
        Measured measured = measure(launcher, options, normalizer, c, keep);
        List<DigestTuple.Drift> drifts = behaviourDrifts(measured.tuple(), gold);
        long fastest = measured.launch().loadFreeMillis();
        int runs = 1;
        int reruns = 0;
        // A time alone out of its bucket may be a noisy neighbour: rerun, and fail only if even the fastest run stays out.
        while (drifts.isEmpty() && timeDrifts(options, gold, measured.tuple().timeBucket(), fastest) && reruns < options.timeBucketReruns()) {
            reruns++;
            Measured again = measure(launcher, options, normalizer, c, keep);
            List<DigestTuple.Drift> againDrifts = behaviourDrifts(again.tuple(), gold);
            if (!againDrifts.isEmpty()) {
                measured = again;
                drifts = againDrifts;
                fastest = again.launch().loadFreeMillis();
                runs = 1;
                break;
            }
            runs++;
            if (again.launch().loadFreeMillis() < fastest) {
                fastest = again.launch().loadFreeMillis();
                measured = again;
            }
        }
        if (options.buckets().enabled() && !measured.launch().timedOut() && measured.launch().started()) {
            measured = new Measured(measured.tuple().withTime(options.buckets().bucket(fastest), fastest), measured.launch());
        }
        if (timeDrifts(options, gold, measured.tuple().timeBucket(), fastest)) {
            drifts = new ArrayList<>(drifts);
            drifts.add(timeDrift(options, gold, measured.tuple(), fastest, runs));
        }
        if (measured.launch().outputLimited()) {
            // The hashes are of a truncated stream: say so first instead of letting them look like a behaviour change.
            List<DigestTuple.Drift> withCap = new ArrayList<>();
            withCap.add(new DigestTuple.Drift("output_limit", "under " + LaunchRequest.DEFAULT_OUTPUT_LIMIT + " bytes per stream",
                    "stopped at the cap (stdout " + measured.launch().stdout().bytes() + ", stderr " + measured.launch().stderr().bytes() + " bytes)"));
            withCap.addAll(drifts);
            drifts = withCap;
        }
        List<FirstDifference.Line> lines = new ArrayList<>();
        LaunchResult launch = measured.launch();
        if (excerpts != null && launch.started()) {
            for (DigestTuple.Drift drift : drifts) {
                FirstDifference.Line line = switch (drift.field()) {
                    case "stdout_sha256" -> StreamExcerpts.firstDifference("stdout", excerpts.stdout(), launch.stdout().file(), normalizer);
                    case "stderr_sha256" -> StreamExcerpts.firstDifference("stderr", excerpts.stderr(), launch.stderr().file(), normalizer);
                    default -> null;
                };
                if (line != null) {
                    lines.add(line);
                }
            }
        }
        return new Row(c, gold, measured.tuple(), drifts, reruns, launch, List.copyOf(lines));
    }

    /** Every drift but the time's: time has hysteresis and is judged on its own. */
    private static List<DigestTuple.Drift> behaviourDrifts(DigestTuple candidate, DigestTuple gold) {
        return candidate.driftFrom(gold).stream().filter(d -> !d.field().equals("time_bucket")).toList();
    }

    /** Another bucket than the gold's, and (gold bucket widened by timeBucketSlack) still outside it. */
    private static boolean timeDrifts(Options options, DigestTuple gold, String bucket, long fastestMillis) {
        return options.buckets().enabled() && gold.timeBucket() != null && bucket != null && !bucket.equals(gold.timeBucket())
                && options.buckets().outside(gold.timeBucket(), fastestMillis, options.timeBucketSlack());
    }

    private static DigestTuple.Drift timeDrift(Options options, DigestTuple gold, DigestTuple candidate, long fastest, int runs) {
        long[] range = options.buckets().widened(gold.timeBucket(), options.timeBucketSlack());
        String limits = range[1] == Long.MAX_VALUE ? String.format(Locale.ROOT, "%,d ms and more", range[0])
                : String.format(Locale.ROOT, "%,d-%,d ms", range[0], range[1]);
        String note = String.format(Locale.ROOT, "fastest %,d ms of %d run%s; %s widened by timeBucketSlack %s is %s", fastest, runs,
                runs == 1 ? "" : "s", gold.timeBucket(), trim(options.timeBucketSlack()), limits)
                + (gold.timeMs() == null ? "" : String.format(Locale.ROOT, "; gold fastest %,d ms", gold.timeMs()));
        return new DigestTuple.Drift("time_bucket", gold.timeBucket(), candidate.timeBucket(), note);
    }

    private static String trim(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }

    private static Path streamPrefix(GoalSettings settings, Case c) {
        return settings.streamsDirectory().resolve(SafeNames.stem(c.id()));
    }

    static String message(Row row) {
        StringBuilder message = new StringBuilder();
        for (DigestTuple.Drift drift : row.drifts()) {
            message.append(message.length() == 0 ? "" : "; ").append(drift.describe());
        }
        if (row.reruns() > 0 && row.drifts().stream().anyMatch(d -> d.field().equals("time_bucket"))) {
            message.append(" (stayed shifted over ").append(row.reruns()).append(" rerun").append(row.reruns() == 1 ? "" : "s").append(')');
        }
        for (FirstDifference.Line line : row.lines()) {
            message.append("; ").append(line.describe());
        }
        return message.toString();
    }

    private static void writeReports(Options options, List<Row> rows, double seconds, GradeLog log) {
        GoalSettings settings = options.settings();
        List<TestCaseReport> tests = new ArrayList<>();
        List<Map<String, Object>> json = new ArrayList<>();
        for (Row row : rows) {
            LaunchResult launch = row.launch();
            String out = launch.started() ? launch.stdout().excerpt() : "";
            String err = launch.started() ? launch.stderr().excerpt() : launch.startFailure().describe();
            double caseSeconds = launch.wallMicros() / 1e6;
            if (row.failed()) {
                StringBuilder what = new StringBuilder();
                row.drifts().forEach(d -> what.append(d.describe()).append('\n'));
                row.lines().forEach(l -> what.append(l.describe()).append('\n'));
                String details = what + "\ngold:      " + GoldStore.json(row.gold(), null, List.of())
                        + "\ncandidate: " + GoldStore.json(row.candidate(), null, List.of())
                        + "\nargs: " + row.testCase().args()
                        + (launch.started() ? "\nfull streams: " + launch.stdout().file() + " and " + launch.stderr().file() : "")
                        + (launch.started() ? settings.facts().hintText(launch.stderr().excerpt(), log) : "")
                        + "\nif the new behaviour is intended: " + settings.hint("record-digest", "-Dpatchgrade.force=true")
                        + ", and commit the gold with the change\n";
                tests.add(TestCaseReport.failed(row.testCase().id(), caseSeconds, row.drifts().get(0).field(), message(row), details, out, err));
            } else {
                tests.add(TestCaseReport.passed(row.testCase().id(), caseSeconds, out, err));
            }
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("case", row.testCase().id());
            one.put("verdict", row.failed() ? "fail" : "pass");
            one.put("drift", row.drifts().stream().map(DigestTuple.Drift::describe).toList());
            one.put("drift_fields", row.drifts().stream().map(DigestTuple.Drift::field).toList());
            one.put("time_bucket_reruns", row.reruns());
            one.put("first_difference", row.lines().stream().map(line -> {
                Map<String, Object> diff = new LinkedHashMap<>();
                diff.put("stream", line.stream());
                diff.put("line", line.number());
                diff.put("gold", line.gold());
                diff.put("candidate", line.candidate());
                diff.put("text", line.describe());
                return diff;
            }).toList());
            one.put("gold", GoldStore.json(row.gold(), null, List.of()));
            one.put("candidate", GoldStore.json(row.candidate(), null, List.of()));
            one.put("wall_ms", launch.wallMillis());
            json.add(one);
        }
        Reports.writeSuite(settings, settings.suiteName(options.shard()), tests, seconds);
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("goal", "digest");
        report.put("execution", settings.executionId());
        report.put("verdict", rows.stream().anyMatch(Row::failed) ? "fail" : "pass");
        report.put("worst", worst(rows));
        report.put("shard", options.shard().all() ? null : options.shard().index() + "/" + options.shard().count());
        report.put("sanitizer", options.sanitizer().wireName());
        report.put("gold", options.gold().toString());
        report.put("candidate_digests", candidateDirectory(settings).toString());
        report.put("sandbox", Reports.sandboxJson(settings));
        report.put("cases", json);
        JsonReports.write(report, settings.jsonReport());
    }

    private static void printTable(GradeLog log, Options options, List<Row> rows) {
        ConsoleTable table = new ConsoleTable("case", "verdict", "drift");
        // Passing rows only when asked for: a console of 60 "pass" lines hides the one that matters.
        List<Row> shown = rows.stream().filter(r -> r.failed() || log.verbose()).limit(log.verbose() ? Long.MAX_VALUE : TABLE_ROWS).toList();
        for (Row row : shown) {
            // Full hashes are in the reports; twelve hex digits tell them apart on a console.
            String drift = row.drifts().stream().map(DigestTuple.Drift::describe).reduce((a, b) -> a + "; " + b).orElse("")
                    .replaceAll("\\b([0-9a-f]{12})[0-9a-f]{52}\\b", "$1");
            table.row(CasesFile.printable(row.testCase().id()), row.failed() ? "FAIL" : "pass", drift);
            for (FirstDifference.Line line : row.lines()) {
                table.row("", "", line.describe());
            }
        }
        long failed = rows.stream().filter(Row::failed).count();
        log.info("digest of " + rows.size() + " case(s) against " + options.gold() + (options.shard().all() ? "" : " (" + options.shard().label() + ")") + ":");
        if (!shown.isEmpty()) {
            table.lines().forEach(log::info);
        }
        long hidden = rows.size() - shown.size();
        if (hidden > 0) {
            log.info(hidden + " more case(s) not listed (" + (rows.size() - failed) + " passed" + (failed > shown.size() ? ", and failures beyond the first "
                    + TABLE_ROWS : "") + "; list every case with -Dpatchgrade.verbose=true)");
        }
        log.info("outcome: " + (failed == 0 ? "PASS, every channel matched" : "FAIL, " + failed + " of " + rows.size() + " case(s) drifted"));
        if (failed > 0) {
            log.info("if the new behaviour is intended, re-record the gold on the known-good build with `"
                    + options.settings().hint("record-digest", "-Dpatchgrade.force=true") + "` and commit it with the change");
        }
    }

    private static String shortHash(String hash) {
        return hash == null ? "null" : hash.substring(0, 12);
    }

    private static String describe(List<NormalizeRule> rules) {
        return rules.isEmpty() ? "(none)" : rules.stream().map(NormalizeRule::describe).toList().toString();
    }
}
