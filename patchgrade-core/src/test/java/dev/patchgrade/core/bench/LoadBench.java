package dev.patchgrade.core.bench;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.count.CounterMode;
import dev.patchgrade.core.count.InstructionCount;
import dev.patchgrade.core.count.InstructionCounters;
import dev.patchgrade.core.digest.DigestGoal;
import dev.patchgrade.core.digest.Sanitizer;
import dev.patchgrade.core.digest.TimeBuckets;
import dev.patchgrade.core.envelope.Ceiling;
import dev.patchgrade.core.envelope.Envelope;
import dev.patchgrade.core.envelope.EnvelopeGrader;
import dev.patchgrade.core.envelope.EnvelopeRecording;
import dev.patchgrade.core.envelope.EnvelopeRun;
import dev.patchgrade.core.envelope.EnvelopeVerdict;
import dev.patchgrade.core.envelope.Slack;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.host.HostInfo;
import dev.patchgrade.core.launch.LaunchRequest;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.launch.Launcher;
import dev.patchgrade.core.launch.Launchers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** The benches of verdicts under load: detection power of the envelope, and false alarms of the digest. */
final class LoadBench {
    private LoadBench() {}

    /**
     * Records an envelope (default slack, instructions +2%) on the first variant on a quiet machine, then
     * grades every variant {@code grades} times with one core kept busy, and counts rejects per ceiling.
     *
     * @param variants {@code name=path} pairs, each run with the argument {@code scan}, and {@code count:command line}
     *     entries whose instructions are only counted. {@code POWER_COUNTS} (default: every grade) limits the
     *     counting runs per variant, for builds whose Valgrind run takes minutes: later grades reuse the last
     *     count (Valgrind's count of one binary is the same run after run), and the table says so.
     */
    static void power(String busy, String trueBinary, int grades, String[] variants) throws Exception {
        Map<String, String> binaries = new LinkedHashMap<>();
        List<String> countOnly = new ArrayList<>();
        for (String variant : variants) {
            if (variant.startsWith("count:")) {
                countOnly.add(variant.substring("count:".length()));
            } else {
                binaries.put(variant.substring(0, variant.indexOf('=')), variant.substring(variant.indexOf('=') + 1));
            }
        }
        try (Launcher launcher = Launchers.open(GradeLog.SILENT)) {
            InstructionCounters.Choice counter = InstructionCounters.choose(CounterMode.AUTO, null, System.getenv("PATH"));
            if (!counter.available()) {
                System.out.println("no instruction counter here: " + counter.unavailable());
                return;
            }
            System.out.println("instruction counter: " + counter.method() + (counter.method().equals("perf") ? ""
                    : " (perf: " + dev.patchgrade.core.count.PerfCounter.probe().problem() + ")"));
            System.out.printf(Locale.ROOT, "instructions of %s: %,d%n", trueBinary, count(launcher, counter, List.of(trueBinary)));
            for (String line : countOnly) {
                System.out.printf(Locale.ROOT, "instructions of %s: %,d%n", line, count(launcher, counter, List.of(line.split(" "))));
            }
            String first = binaries.keySet().iterator().next();
            LaunchRequest baselineRequest = LaunchRequest.of(List.of(binaries.get(first), "scan"));
            List<EnvelopeRun> baseline = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                baseline.add(EnvelopeRun.of(launcher.launch(baselineRequest)));
            }
            InstructionCount baseCount = counter.counter().count(launcher, baselineRequest);
            EnvelopeRecording recording = EnvelopeRecording.of(baselineRequest.command(), 5, baseline, Slack.DEFAULT, HostInfo.detect(null), null)
                    .withInstructions(baseCount, 2);
            Envelope envelope = new Envelope(Path.of("bench-envelope.json"), recording.cmd(), 5, recording.ceilings(), null, null, null,
                    counter.method());
            System.out.printf(Locale.ROOT, "envelope recorded on %s, quiet machine, worst of 3 runs: rss %,d KB, user %,d us, instructions %,d"
                    + "%n  -> ceilings rss %,d KB, user %,d us, instructions %,d%n", first, recording.worst().get(Ceiling.RSS),
                    recording.worst().get(Ceiling.USER_CPU), baseCount.value(), recording.ceilings().get(Ceiling.RSS),
                    recording.ceilings().get(Ceiling.USER_CPU), recording.ceilings().get(Ceiling.INSTRUCTIONS));
            int counts = Integer.parseInt(System.getenv().getOrDefault("POWER_COUNTS", Integer.toString(grades)));
            Process neighbour = new ProcessBuilder(busy, "3600").start();
            try {
                System.out.printf(Locale.ROOT, "%-8s %8s %14s %14s %14s %6s %6s %12s%n", "variant", "rejects", "instructions", "min user us",
                        "max user us", "rss", "user", "instructions");
                for (Map.Entry<String, String> variant : binaries.entrySet()) {
                    LaunchRequest request = LaunchRequest.of(List.of(variant.getValue(), "scan"));
                    int rejects = 0;
                    Map<String, Integer> byReason = new TreeMap<>();
                    long minUser = Long.MAX_VALUE;
                    long maxUser = 0;
                    long instructions = 0;
                    InstructionCount last = null;
                    for (int i = 0; i < grades; i++) {
                        EnvelopeRun run = EnvelopeRun.of(launcher.launch(request));
                        InstructionCount count = i < counts || last == null ? counter.counter().count(launcher, request) : last;
                        last = count;
                        EnvelopeVerdict verdict = EnvelopeGrader.grade(envelope, List.of(run), null, List.of(), count);
                        if (!verdict.accepted()) {
                            rejects++;
                            verdict.reasons().forEach(reason -> byReason.merge(reason, 1, Integer::sum));
                        }
                        minUser = Math.min(minUser, run.userMicros());
                        maxUser = Math.max(maxUser, run.userMicros());
                        instructions = count.value();
                    }
                    System.out.printf(Locale.ROOT, "%-8s %5d/%-2d %,14d %,14d %,14d %6d %6d %12d%n", variant.getKey(), rejects, grades, instructions,
                            minUser, maxUser, byReason.getOrDefault("rss", 0), byReason.getOrDefault("user_cpu", 0),
                            byReason.getOrDefault("instructions", 0));
                    byReason.keySet().stream().filter(r -> !List.of("rss", "user_cpu", "instructions").contains(r))
                            .forEach(r -> System.out.println("  also rejected for " + r + ": " + byReason.get(r)));
                }
                System.out.println("(the last three columns: rejects per ceiling; instructions: the count of the last grade"
                        + (counts < grades ? "; counted in the first " + counts + " grades of each variant, reused after)" : ")"));
            } finally {
                neighbour.destroyForcibly();
            }
        }
    }

    private static long count(Launcher launcher, InstructionCounters.Choice counter, List<String> command) {
        InstructionCount count = counter.counter().count(launcher, LaunchRequest.of(command));
        if (!count.measured()) {
            throw new IllegalStateException(count.problem());
        }
        return count.value();
    }

    /**
     * A digest of 200 CPU-bound cases from 1 ms to 2 s (log-spaced, calibrated on this machine), recorded
     * with both cores busy and graded {@code grades} times on a quiet machine, then the reverse. Prints the
     * failing cases of every grade.
     */
    static void alarms(String spin, String busy, int cases, int grades) throws Exception {
        Path work = Files.createTempDirectory("patchgrade-alarms-bench-");
        try (Launcher launcher = Launchers.open(GradeLog.SILENT)) {
            long iterations = 400_000_000L;
            LaunchResult calibration = launcher.launch(LaunchRequest.of(List.of(spin, Long.toString(iterations))).withTimeout(Duration.ofMinutes(1)));
            double perMs = iterations / Math.max(1.0, calibration.usage().userMicros() / 1000.0);
            StringBuilder lines = new StringBuilder();
            for (int i = 0; i < cases; i++) {
                double ms = Math.pow(2000, i / (double) (cases - 1));
                lines.append(Math.round(ms * perMs)).append('\n');
            }
            Path casesFile = Files.writeString(work.resolve("cases.txt"), lines);
            System.out.printf(Locale.ROOT, "%d cases, 1 ms to 2 s of CPU each (%.0f iterations per ms), parallel 2, default buckets "
                    + "and slack, timeSamples 3, timeBucketReruns 3%n", cases, perMs);
            for (boolean recordBusy : new boolean[] {true, false}) {
                Path gold = work.resolve(recordBusy ? "gold-busy" : "gold-quiet");
                DigestGoal.Options record = options(work, casesFile, gold, spin, "record");
                withLoad(busy, recordBusy, () -> DigestGoal.record(record, GradeLog.SILENT));
                List<Integer> failing = new ArrayList<>();
                List<String> examples = new ArrayList<>();
                for (int g = 0; g < grades; g++) {
                    DigestGoal.Options grade = options(work, casesFile, gold, spin, "grade-" + g);
                    GoalResult result = withLoad(busy, !recordBusy, () -> DigestGoal.grade(grade, GradeLog.SILENT));
                    failing.add(result.failures().size());
                    result.failures().stream().limit(3 - Math.min(3, examples.size())).forEach(examples::add);
                }
                System.out.printf(Locale.ROOT, "recorded %s, graded %s: failing cases per grade %s (total %d of %d graded)%n",
                        recordBusy ? "with both cores busy" : "quiet", recordBusy ? "quiet" : "with both cores busy", failing,
                        failing.stream().mapToInt(Integer::intValue).sum(), grades * cases);
                examples.forEach(e -> System.out.println("  e.g. " + e));
            }
        } finally {
            try (var files = Files.walk(work)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static DigestGoal.Options options(Path work, Path cases, Path gold, String spin, String execution) {
        GoalSettings settings = new GoalSettings("digest", execution, work.resolve("reports"), work.resolve("out"), work, Map.of());
        return DigestGoal.Options.builder(settings)
                .cases(cases)
                .gold(gold)
                .command(List.of(spin))
                .timeoutSeconds(30)
                .buckets(TimeBuckets.parse(null))
                .timeBucketReruns(3)
                .parallel(2)
                .force(true)
                .build();
    }

    private interface Work<T> {
        T run() throws Exception;
    }

    /** Runs {@code work} with two busy loops beside it when {@code busy}. */
    private static <T> T withLoad(String busyBinary, boolean busy, Work<T> work) throws Exception {
        List<Process> loops = new ArrayList<>();
        try {
            if (busy) {
                for (int i = 0; i < 2; i++) {
                    loops.add(new ProcessBuilder(busyBinary, "3600").start());
                }
            }
            return work.run();
        } finally {
            loops.forEach(Process::destroyForcibly);
        }
    }
}
