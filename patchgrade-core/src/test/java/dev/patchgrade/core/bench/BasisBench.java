package dev.patchgrade.core.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.count.CounterMode;
import dev.patchgrade.core.digest.DigestGoal;
import dev.patchgrade.core.digest.Sanitizer;
import dev.patchgrade.core.digest.TimeBasis;
import dev.patchgrade.core.digest.TimeBuckets;
import dev.patchgrade.core.envelope.EnvelopeGoal;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.launch.LaunchRequest;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.launch.Launcher;
import dev.patchgrade.core.launch.Launchers;
import dev.patchgrade.core.report.JsonReports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The benches behind bench/time-basis.sh: time buckets under load on either basis, and what the instruction count costs. */
final class BasisBench {
    private BasisBench() {}

    /**
     * A sanitizer build's digest, {@code cases} cases of 5 to 100 ms of CPU (log-spaced, calibrated here) run through a
     * bash wrapper, with the default buckets, slack and reruns: recorded on the machine as it is, graded {@code grades}
     * times while {@code loops} busy loops run, once per basis. Prints, per basis, the time_bucket failures of each
     * grade and the spread of graded time over recorded time (the fastest of each case's runs over its gold time_ms).
     */
    static void spread(String binary, int cases, int grades, int loops) throws Exception {
        Path work = Files.createTempDirectory("patchgrade-basis-bench-");
        try {
            Path wrapper = Files.writeString(work.resolve("run-case.sh"), "#!/bin/bash\n\"$1\" \"$2\"\nexit $?\n");
            List<String> command = List.of("/bin/bash", wrapper.toString(), binary);
            Path casesFile = Files.writeString(work.resolve("cases.txt"), String.join("\n", calibrated(command, cases)) + "\n");
            System.out.printf(Locale.ROOT, "%d cases of 5-100 ms of CPU, %s through a bash wrapper; default buckets (50,500,5000), slack 2, "
                    + "timeSamples 3, timeBucketReruns 3, parallel 2; graded with %d busy loops on %d cores; load average before: %s%n", cases,
                    Path.of(binary).getFileName(), loops, Runtime.getRuntime().availableProcessors(), loadAverage());
            for (TimeBasis basis : TimeBasis.values()) {
                Path gold = work.resolve("gold-" + basis.wireName());
                DigestGoal.record(options(work, casesFile, gold, command, basis, "record-" + basis.wireName()), GradeLog.SILENT);
                List<Integer> failing = new ArrayList<>();
                List<Double> ratios = new ArrayList<>();
                List<String> worst = new ArrayList<>();
                for (int g = 0; g < grades; g++) {
                    DigestGoal.Options grade = options(work, casesFile, gold, command, basis, "grade-" + basis.wireName() + "-" + g);
                    GoalResult result = withLoops(loops, () -> DigestGoal.grade(grade, GradeLog.SILENT));
                    failing.add(result.failures().size());
                    JsonNode report = JsonReports.MAPPER.readTree(grade.settings().jsonReport().toFile());
                    for (JsonNode row : report.path("cases")) {
                        long recorded = row.path("gold").path("time_ms").asLong();
                        long graded = row.path("candidate").path("time_ms").asLong();
                        if (recorded > 0) {
                            ratios.add(graded / (double) recorded);
                            worst.add(String.format(Locale.ROOT, "%.2f (%d -> %d ms)", graded / (double) recorded, recorded, graded));
                        }
                    }
                }
                double[] sorted = ratios.stream().mapToDouble(Double::doubleValue).sorted().toArray();
                System.out.printf(Locale.ROOT, "timeBasis %-4s: time_bucket failures per grade %s (%d of %d graded); graded/recorded time "
                        + "min %.2f, median %.2f, p90 %.2f, max %.2f%n", basis.wireName(), failing, failing.stream().mapToInt(Integer::intValue).sum(),
                        grades * cases, at(sorted, 0), at(sorted, 0.5), at(sorted, 0.9), at(sorted, 1));
                worst.sort(java.util.Comparator.comparingDouble((String w) -> Double.parseDouble(w.substring(0, w.indexOf(' ')))).reversed());
                System.out.println("  largest: " + String.join(", ", worst.subList(0, Math.min(5, worst.size()))));
            }
        } finally {
            try (var files = Files.walk(work)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /**
     * record-envelope of each command (3 native runs, instructionCounter auto), as a user runs it: prints the line the
     * goal prints with the counted run's wall time beside the native runs', and its warning where it gives one.
     */
    static void countCost(String[] commands) throws Exception {
        Path work = Files.createTempDirectory("patchgrade-count-bench-");
        try {
            for (String line : commands) {
                List<String> said = new ArrayList<>();
                GoalSettings settings = new GoalSettings("record-envelope", "bench", work.resolve("reports"), work.resolve("out"), work, Map.of());
                EnvelopeGoal.record(EnvelopeGoal.recording(settings).envelope(work.resolve("envelope.json")).command(Arrays.asList(line.split(" ")))
                        .runs(3).timeoutSeconds(60).force(true).instructionCounter(CounterMode.AUTO).build(), new GradeLog() {
                            @Override
                            public void info(String message) {
                                if (message.startsWith("wall time: ")) {
                                    said.add(message);
                                }
                            }

                            @Override
                            public void warn(String message) {
                                said.add("[WARNING] " + message);
                            }

                            @Override
                            public void debug(String message) {}
                        });
                System.out.println(line + ":");
                said.forEach(s -> System.out.println("  " + s));
            }
        } finally {
            try (var files = Files.walk(work)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static double at(double[] sorted, double quantile) {
        return sorted.length == 0 ? Double.NaN : sorted[(int) Math.min(sorted.length - 1, Math.round(quantile * (sorted.length - 1)))];
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).strip();
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }

    private static DigestGoal.Options options(Path work, Path cases, Path gold, List<String> command, TimeBasis basis, String execution) {
        GoalSettings settings = new GoalSettings("digest", execution, work.resolve("reports"), work.resolve("out"), work, Map.of());
        return DigestGoal.Options.builder(settings).cases(cases).gold(gold).command(command).sanitizer(Sanitizer.ASAN_UBSAN).timeoutSeconds(30)
                .buckets(TimeBuckets.parse(null)).timeBucketReruns(3).timeSamples(3).parallel(2).force(true).timeBasis(basis).build();
    }

    /** Rounds of work for CPU times log-spaced from 5 to 100 ms through the wrapper, from two calibration runs. */
    private static List<String> calibrated(List<String> command, int cases) {
        try (Launcher launcher = Launchers.open(GradeLog.SILENT)) {
            long idle = cpuMicros(launcher, command, 0);
            long calibration = 400;
            double perRound = Math.max(1.0, (cpuMicros(launcher, command, calibration) - idle) / (double) calibration);
            List<String> rounds = new ArrayList<>();
            for (int i = 0; i < cases; i++) {
                double ms = 5 * Math.pow(20, i / (double) Math.max(1, cases - 1));
                rounds.add(Long.toString(Math.max(1, Math.round((ms * 1000 - idle) / perRound))));
            }
            return rounds.stream().distinct().toList();
        }
    }

    private static long cpuMicros(Launcher launcher, List<String> command, long rounds) {
        long fastest = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            List<String> run = new ArrayList<>(command);
            run.add(Long.toString(rounds));
            LaunchResult result = launcher.launch(LaunchRequest.of(run).withTimeout(Duration.ofSeconds(60)));
            fastest = Math.min(fastest, result.usage().userMicros() + result.usage().systemMicros());
        }
        return fastest;
    }

    private interface Work<T> {
        T run() throws Exception;
    }

    private static <T> T withLoops(int count, Work<T> work) throws Exception {
        List<Process> loops = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                // A session each, as other builds have: autogroup scheduling weighs a session as one.
                loops.add(new ProcessBuilder("setsid", "/bin/sh", "-c", "while :; do :; done").start());
            }
            return work.run();
        } finally {
            loops.forEach(Process::destroyForcibly);
            for (Process loop : loops) {
                loop.waitFor();
            }
        }
    }
}
