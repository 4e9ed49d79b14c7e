package dev.patchgrade.core.bench;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.envelope.Ceiling;
import dev.patchgrade.core.envelope.Envelope;
import dev.patchgrade.core.envelope.EnvelopeGrader;
import dev.patchgrade.core.envelope.EnvelopeRecording;
import dev.patchgrade.core.envelope.EnvelopeRun;
import dev.patchgrade.core.envelope.EnvelopeVerdict;
import dev.patchgrade.core.envelope.Slack;
import dev.patchgrade.core.host.HostInfo;
import dev.patchgrade.core.launch.LaunchRequest;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.launch.Launcher;
import dev.patchgrade.core.launch.Launchers;
import dev.patchgrade.core.launch.SandboxSpec;
import dev.patchgrade.core.launch.StreamHashing;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.LongSummaryStatistics;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** The benchmarks behind bench/run.sh; each prints its figures and ratios against a baseline of the same run. */
public final class LaunchBench {
    private LaunchBench() {}

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "launches" -> launches(args[1], args[2], Integer.parseInt(args[3]));
            case "hashing" -> hashing(args[1], Integer.parseInt(args[2]));
            case "noise" -> noise(args[1], args[2], Integer.parseInt(args[3]));
            case "digest" -> digest(args[1], args[2], Integer.parseInt(args[3]));
            case "differential" -> DifferentialBench.run(args[1], args[2], args[3], Integer.parseInt(args[4]));
            case "rss" -> rss(java.util.Arrays.copyOfRange(args, 1, args.length));
            case "power" -> LoadBench.power(args[1], args[2], Integer.parseInt(args[3]), java.util.Arrays.copyOfRange(args, 4, args.length));
            case "alarms" -> LoadBench.alarms(args[1], args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]));
            case "basis" -> BasisBench.spread(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]));
            case "count-cost" -> BasisBench.countCost(java.util.Arrays.copyOfRange(args, 1, args.length));
            default -> throw new IllegalArgumentException("unknown bench " + args[0]);
        }
    }

    private static final int ROUNDS = 7;
    private static final int WARM_UP = 10_000;

    /**
     * Interleaves the floor and each launch path in rounds, so drift in the machine's load hits all of
     * them alike, and reports the median of each path's per-round ratio to that round's floor.
     */
    private static void launches(String program, String floorProgram, int count) throws Exception {
        int perRound = Math.max(100, count / ROUNDS);
        String[] names = {"C posix_spawn+wait4 loop (floor)", "JDK ProcessBuilder (no rusage)", "launcher, sandbox off, sequential",
            "launcher, sandbox off, 2 workers", "launcher, sandbox on, sequential", "launcher, sandbox on, 2 workers"};
        double[][] ms = new double[names.length][ROUNDS];
        try (Launcher open = Launchers.open(GradeLog.SILENT);
                Launcher boxed = Launchers.open(GradeLog.SILENT, SandboxSpec.of(SandboxSpec.Mode.REQUIRED).showingAlso(List.of(Path.of(program))))) {
            LaunchRequest request = LaunchRequest.of(List.of(program));
            // Warm-up: helper start and the JIT, which keeps a C2 thread busy for several thousand launches;
            // what follows is the steady state of a long grading run.
            for (int i = 0; i < WARM_UP; i++) {
                open.launch(request);
                if (i % 4 == 0) {
                    boxed.launch(request);
                }
            }
            jdkSpawn(program, 1000);
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                for (int round = 0; round < ROUNDS; round++) {
                    ms[0][round] = floor(floorProgram, program, perRound);
                    ms[1][round] = jdkSpawn(program, perRound);
                    ms[2][round] = sequential(open, request, perRound);
                    ms[3][round] = parallel(pool, open, request, perRound);
                    ms[4][round] = sequential(boxed, request, perRound);
                    ms[5][round] = parallel(pool, boxed, request, perRound);
                }
            } finally {
                pool.shutdown();
            }
        }
        System.out.printf(Locale.ROOT, "after %,d warm-up launches, %d rounds of %d launches per path; median ms and median ratio to the"
                + " same round's floor%n", WARM_UP, ROUNDS, perRound);
        System.out.printf(Locale.ROOT, "%-38s %8s %8s%n", "path", "ms", "ratio");
        for (int path = 0; path < names.length; path++) {
            double[] ratios = new double[ROUNDS];
            for (int round = 0; round < ROUNDS; round++) {
                ratios[round] = ms[path][round] / ms[0][round];
            }
            System.out.printf(Locale.ROOT, "%-38s %8.3f %7.2fx%n", names[path], median(ms[path]), median(ratios));
        }
    }

    private static double sequential(Launcher launcher, LaunchRequest request, int count) {
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            check(launcher.launch(request));
        }
        return (System.nanoTime() - start) / 1e6 / count;
    }

    private static double parallel(ExecutorService pool, Launcher launcher, LaunchRequest request, int count) throws Exception {
        long start = System.nanoTime();
        List<Future<?>> halves = new ArrayList<>();
        for (int worker = 0; worker < 2; worker++) {
            halves.add(pool.submit(() -> {
                for (int i = 0; i < count / 2; i++) {
                    check(launcher.launch(request));
                }
                return null;
            }));
        }
        for (Future<?> half : halves) {
            half.get();
        }
        return (System.nanoTime() - start) / 1e6 / (count / 2 * 2);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static double floor(String floorProgram, String program, int count) throws Exception {
        return floorWithCpu(floorProgram, program, count, List.of())[0];
    }

    /**
     * The floor's wall milliseconds per launch and its CPU milliseconds per launch (the loop and every child it waited for).
     *
     * @param argument nothing, or the one argument every launch gets (as each case gets its id)
     */
    static double[] floorWithCpu(String floorProgram, String program, int count, List<String> argument) throws Exception {
        long before = cpuTicks()[1];
        List<String> command = new ArrayList<>(List.of(floorProgram, program, Integer.toString(count)));
        command.addAll(argument);
        Process process = new ProcessBuilder(command).start();
        String out = new String(process.getInputStream().readAllBytes()).strip();
        process.waitFor();
        return new double[] {Double.parseDouble(out), (cpuTicks()[1] - before) * TICK_MS / count};
    }

    /**
     * Two floor loops at once, each of {@code count} launches: ms per launch of the pair together (each loop's time
     * over two). What two workers could do at best on this host: where process creation does not scale over the
     * cores, it is above half the floor.
     */
    private static double pairedFloor(String floorProgram, String program, int count, List<String> argument) throws Exception {
        List<String> command = new ArrayList<>(List.of(floorProgram, program, Integer.toString(count)));
        command.addAll(argument);
        Process first = new ProcessBuilder(command).start();
        Process second = new ProcessBuilder(command).start();
        double a = Double.parseDouble(new String(first.getInputStream().readAllBytes()).strip());
        double b = Double.parseDouble(new String(second.getInputStream().readAllBytes()).strip());
        first.waitFor();
        second.waitFor();
        return (a + b) / 2 / 2;
    }

    /** Clock ticks of CPU so far: {this JVM's user+system, its reaped children's (with everything they reaped)}. */
    private static long[] cpuTicks() throws java.io.IOException {
        String stat = Files.readString(Path.of("/proc/self/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // fields[0] is the state (field 3 of proc(5)): utime is field 14, cutime 16.
        return new long[] {Long.parseLong(fields[11]) + Long.parseLong(fields[12]), Long.parseLong(fields[13]) + Long.parseLong(fields[14])};
    }

    /** USER_HZ: 100 on every Linux this bench runs on (what sysconf(_SC_CLK_TCK) returns there). */
    private static final double TICK_MS = 10;

    private static double jdkSpawn(String program, int count) throws Exception {
        for (int i = 0; i < 50; i++) {
            new ProcessBuilder(program).start().waitFor();
        }
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            Process process = new ProcessBuilder(program).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            process.waitFor();
        }
        return (System.nanoTime() - start) / 1e6 / count;
    }

    private static void check(LaunchResult result) {
        if (!result.exitedZero()) {
            throw new IllegalStateException("bench launch failed: " + result.outcome());
        }
    }

    private static void hashing(String writer, int mebibytes) throws Exception {
        Path scratch = Files.createTempDirectory("patchgrade-bench-");
        try (Launcher launcher = Launchers.open(GradeLog.SILENT)) {
            long start = System.nanoTime();
            LaunchResult result = launcher.launch(LaunchRequest.of(List.of(writer, Integer.toString(mebibytes)))
                    .withOutputLimit((long) (mebibytes + 1) << 20).withTimeout(Duration.ofMinutes(5)).keepingOutputAs(scratch.resolve("big")));
            double total = (System.nanoTime() - start) / 1e9;
            check(result);
            // Hash the kept file again on its own, to separate hashing from the child's writing.
            start = System.nanoTime();
            String again = StreamHashing.digestFile(result.stdout().file(), StreamHashing.DEFAULT_EXCERPT_BYTES, true).sha256();
            double hashOnly = (System.nanoTime() - start) / 1e9;
            double gb = result.stdout().bytes() / 1e9;
            Runtime rt = Runtime.getRuntime();
            System.out.printf(Locale.ROOT, "stdout bytes: %,d  (max heap %d MiB, heap in use after: %d MiB)%n", result.stdout().bytes(),
                    rt.maxMemory() >> 20, (rt.totalMemory() - rt.freeMemory()) >> 20);
            System.out.printf(Locale.ROOT, "child writes + launcher hashes: %.2f s (%.2f GB/s)%n", total, gb / total);
            System.out.printf(Locale.ROOT, "hashing alone, from the file:   %.2f s (%.2f GB/s); same digest: %s%n", hashOnly, gb / hashOnly,
                    again.equals(result.stdout().sha256()));
        } finally {
            try (var files = Files.walk(scratch)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void noise(String scoreLookup, String busy, int grades) throws Exception {
        try (Launcher launcher = Launchers.open(GradeLog.SILENT)) {
            LaunchRequest request = LaunchRequest.of(List.of(scoreLookup, "scan"));
            List<EnvelopeRun> baseline = List.of(EnvelopeRun.of(launcher.launch(request)));
            EnvelopeRecording recording = EnvelopeRecording.of(request.command(), 5, baseline, Slack.DEFAULT, HostInfo.detect(null), null);
            Envelope envelope = new Envelope(Path.of("bench-envelope.json"), recording.cmd(), 5, recording.ceilings(), null, null, null);
            System.out.printf(Locale.ROOT, "baseline on a quiet machine: rss %,d KB, user %,d us -> ceilings rss %,d KB, user %,d us%n",
                    recording.worst().get(Ceiling.RSS), recording.worst().get(Ceiling.USER_CPU),
                    recording.ceilings().get(Ceiling.RSS), recording.ceilings().get(Ceiling.USER_CPU));
            Process neighbour = new ProcessBuilder(busy, "600").start();
            try {
                int rejects = 0;
                LongSummaryStatistics user = new LongSummaryStatistics();
                LongSummaryStatistics rss = new LongSummaryStatistics();
                for (int i = 0; i < grades; i++) {
                    EnvelopeRun run = EnvelopeRun.of(launcher.launch(request));
                    EnvelopeVerdict verdict = EnvelopeGrader.grade(envelope, List.of(run), null, List.of());
                    if (!verdict.accepted()) {
                        rejects++;
                        System.out.println("  reject: " + verdict.reasons());
                    }
                    user.accept(run.userMicros());
                    rss.accept(run.maxRssKb());
                }
                System.out.printf(Locale.ROOT, "%d grades with one core busy: %d rejects%n", grades, rejects);
                System.out.printf(Locale.ROOT, "user CPU us: min %,d  max %,d  spread %.1f%%%n", user.getMin(), user.getMax(),
                        (user.getMax() - user.getMin()) * 100.0 / user.getMin());
                System.out.printf(Locale.ROOT, "peak RSS KB: min %,d  max %,d  spread %.1f%%%n", rss.getMin(), rss.getMax(),
                        (rss.getMax() - rss.getMin()) * 100.0 / rss.getMin());
            } finally {
                neighbour.destroyForcibly();
            }
        }
    }

    /**
     * Wall time of the digest goal over many cases of a trivial binary, sandbox off and on, with 1 and 2
     * workers, each next to the C floor for the same number of launches, measured just before and just after it. Beside it, the
     * CPU a case costs: the JVM's own (every thread, the JIT compilers and GC included) and that of its reaped
     * children (the helpers, with every run they reaped). "CPU bound" is that CPU spread over every core, over
     * the floor: the ratio no number of workers can beat while a case costs this much CPU.
     */
    private static void digest(String program, String floorProgram, int cases) throws Exception {
        Path work = Files.createTempDirectory("patchgrade-digest-bench-");
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < cases; i++) {
            lines.append("case-").append(i).append('\n');
        }
        Path casesFile = Files.writeString(work.resolve("cases.txt"), lines);
        System.out.printf(Locale.ROOT, "%-34s %9s %12s %8s %10s %12s %10s%n", "digest of " + cases + " cases", "seconds", "ms per case", "ratio",
                "JVM CPU", "helper+runs", "CPU bound");
        double[] floorCpu = floorWithCpu(floorProgram, program, cases, List.of("case-0"));
        System.out.printf(Locale.ROOT, "%-34s %9s %12.3f %8s %10s %9.3f ms%n", "floor (C posix_spawn + wait4 loop)", "", floorCpu[0], "1.00x", "",
                floorCpu[1]);
        double paired = pairedFloor(floorProgram, program, cases, List.of("case-0"));
        double single = floorWithCpu(floorProgram, program, cases, List.of("case-0"))[0];
        // Against the floor of one loop taken right after it: what 2 workers could reach at best here.
        System.out.printf(Locale.ROOT, "%-34s %9s %12.3f %7.2fx%n", "two floor loops side by side", "", paired, paired / single);
        // The first grade of each kind runs while the JIT compiles; then rounds, each next to its own floor, for a median.
        int rounds = Integer.getInteger("bench.digestRounds", 5);
        java.util.Map<String, List<Double>> ratios = new java.util.LinkedHashMap<>();
        java.util.Map<String, List<Double>> bounds = new java.util.LinkedHashMap<>();
        for (int pass = 0; pass <= rounds; pass++) {
            for (SandboxSpec.Mode mode : List.of(SandboxSpec.Mode.OFF, SandboxSpec.Mode.REQUIRED)) {
                for (int workers : new int[] {1, 2}) {
                    dev.patchgrade.core.grade.GoalSettings settings = new dev.patchgrade.core.grade.GoalSettings("digest", "p" + workers,
                            work.resolve("reports"), work.resolve("out"), work, java.util.Map.of())
                            .withSandbox(dev.patchgrade.core.grade.SandboxSettings.auto().withMode(mode));
                    dev.patchgrade.core.digest.DigestGoal.Options options = dev.patchgrade.core.digest.DigestGoal.Options.builder(settings)
                            .cases(casesFile)
                            .gold(work.resolve("gold"))
                            .command(List.of(program))
                            // One wide bucket: this measures launch cost, and a loaded machine must not fail a case.
                            .buckets(dev.patchgrade.core.digest.TimeBuckets.parse("60000"))
                            .timeBucketReruns(0)
                            .parallel(workers)
                            .force(true)
                            .build();
                    if (!Files.exists(work.resolve("gold"))) {
                        dev.patchgrade.core.digest.DigestGoal.record(options, GradeLog.SILENT);
                    }
                    double floorBefore = floorWithCpu(floorProgram, program, cases, List.of("case-0"))[0];
                    long[] cpuBefore = cpuTicks();
                    long start = System.nanoTime();
                    dev.patchgrade.core.grade.GoalResult result = dev.patchgrade.core.digest.DigestGoal.grade(options, GradeLog.SILENT);
                    double seconds = (System.nanoTime() - start) / 1e9;
                    long[] cpuAfter = cpuTicks();
                    // The floor on both sides of the grade: on this host it moves by up to 8% from one loop to the next.
                    double floorMs = (floorBefore + floorWithCpu(floorProgram, program, cases, List.of("case-0"))[0]) / 2;
                    if (result.failed() || result.error() != null) {
                        throw new IllegalStateException("bench digest failed: " + result);
                    }
                    // The helpers are reaped when the grade closes its launcher, so their CPU and their runs' is in cutime by now.
                    double jvmCpu = (cpuAfter[0] - cpuBefore[0]) * TICK_MS / cases;
                    double childCpu = (cpuAfter[1] - cpuBefore[1]) * TICK_MS / cases;
                    String kind = "sandbox " + mode.wireName() + ", parallel " + workers;
                    String label = kind + (pass == 0 ? " (first)" : " (round " + pass + ")");
                    if (pass > 0) {
                        ratios.computeIfAbsent(kind, k -> new ArrayList<>()).add(seconds * 1000 / cases / floorMs);
                        bounds.computeIfAbsent(kind, k -> new ArrayList<>()).add((jvmCpu + childCpu) / Runtime.getRuntime().availableProcessors() / floorMs);
                    }
                    if (mode == SandboxSpec.Mode.OFF) {
                        System.out.printf(Locale.ROOT, "%-34s %9.2f %12.3f %7.2fx %7.3f ms %9.3f ms %9.2fx%n", label, seconds, seconds * 1000 / cases,
                                seconds * 1000 / cases / floorMs, jvmCpu, childCpu, (jvmCpu + childCpu) / Runtime.getRuntime().availableProcessors() / floorMs);
                    } else {
                        // Sandboxed runs are reaped inside their PID namespace: their CPU never reaches this JVM's cutime.
                        System.out.printf(Locale.ROOT, "%-34s %9.2f %12.3f %7.2fx %7.3f ms %12s %10s%n", label, seconds, seconds * 1000 / cases,
                                seconds * 1000 / cases / floorMs, jvmCpu, "-", "-");
                    }
                }
            }
        }
        System.out.printf(Locale.ROOT, "%-34s %8s %16s %10s%n", "over " + rounds + " rounds", "median", "min-max", "CPU bound");
        ratios.forEach((kind, values) -> System.out.printf(Locale.ROOT, "%-34s %7.2fx %7.2fx-%6.2fx %9s%n", kind, median(values),
                java.util.Collections.min(values), java.util.Collections.max(values),
                kind.contains("off") ? String.format(Locale.ROOT, "%.2fx", median(bounds.get(kind))) : "-"));
        try (var files = Files.walk(work)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

    /**
     * Peak RSS as the launcher measures it, next to GNU time run from a shell, while this JVM holds
     * 320 MiB of live heap. Each argument is one command line; each figure is the minimum of 3 runs.
     */
    private static void rss(String[] commands) throws Exception {
        List<byte[]> ballast = new ArrayList<>();
        for (int i = 0; i < 320; i++) {
            byte[] block = new byte[1 << 20];
            for (int j = 0; j < block.length; j += 4096) {
                block[j] = 1;
            }
            ballast.add(block);
        }
        System.out.printf(Locale.ROOT, "JVM holding %d MiB of heap%n%-40s %12s %12s %14s %8s%n", ballast.size(), "command", "sandbox off",
                "sandbox on", "GNU time KB", "diff on");
        try (Launcher open = Launchers.open(GradeLog.SILENT);
                Launcher boxed = Launchers.open(GradeLog.SILENT, SandboxSpec.of(SandboxSpec.Mode.REQUIRED).showingAlso(shownBy(commands)))) {
            for (String line : commands) {
                List<String> command = line.startsWith("sh -c ") ? List.of("/bin/sh", "-c", line.substring(6)) : List.of(line.split(" "));
                long ours = Long.MAX_VALUE;
                long sandboxed = Long.MAX_VALUE;
                long gnu = Long.MAX_VALUE;
                for (int i = 0; i < 3; i++) {
                    ours = Math.min(ours, open.launch(LaunchRequest.of(command)).usage().maxRssKb());
                    sandboxed = Math.min(sandboxed, boxed.launch(LaunchRequest.of(command)).usage().maxRssKb());
                    Path report = Files.createTempFile("gnu-time", ".txt");
                    String quoted = line.startsWith("sh -c ") ? "/bin/sh -c '" + line.substring(6) + "'" : line;
                    Process p = new ProcessBuilder("/bin/sh", "-c", "exec /usr/bin/time -f %M -o " + report + " " + quoted + " >/dev/null").start();
                    p.getInputStream().readAllBytes();
                    p.waitFor();
                    gnu = Math.min(gnu, Long.parseLong(Files.readString(report).strip()));
                    Files.delete(report);
                }
                System.out.printf(Locale.ROOT, "%-40s %,12d %,12d %,14d %+7.1f%%%n", shortName(line), ours, sandboxed, gnu,
                        (sandboxed - gnu) * 100.0 / gnu);
            }
        }
        if (ballast.isEmpty()) {
            throw new IllegalStateException();
        }
    }

    private static String shortName(String line) {
        String[] parts = line.split(" ", 2);
        return Path.of(parts[0]).getFileName() + (parts.length > 1 ? " " + parts[1] : "");
    }

    /** Every existing path the commands name: what a goal's view would show them. */
    private static List<Path> shownBy(String[] commands) {
        List<Path> shown = new java.util.ArrayList<>();
        for (String line : commands) {
            shown.addAll(dev.patchgrade.core.grade.RunInputs.named(List.of(line.split("[ ;&]+")), null));
        }
        return shown;
    }
}
