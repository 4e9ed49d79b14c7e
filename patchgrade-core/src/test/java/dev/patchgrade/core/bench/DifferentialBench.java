package dev.patchgrade.core.bench;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.classify.ThreeColumnGoal;
import dev.patchgrade.core.differential.DifferentialGoal;
import dev.patchgrade.core.differential.Seed;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.SandboxSettings;
import dev.patchgrade.core.launch.SandboxSpec;
import com.fasterxml.jackson.databind.JsonNode;
import dev.patchgrade.core.report.JsonReports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a generated case costs the differential goal, next to the launch floor: a case is two launches (the reference
 * and the candidate) and a comparison, so 2.00x the floor is a grade with no cost of its own. The generator's two
 * runs are the grade's fixed cost; a differing case's shrinking costs its run pairs.
 */
final class DifferentialBench {
    private static final int ROUNDS = 3;

    private DifferentialBench() {}

    /**
     * @param echo a program that prints its argument: the reference, and a copy of it the agreeing candidate
     * @param silent a program that prints nothing: the candidate that differs on every case
     */
    static void run(String echo, String silent, String floorProgram, int cases) throws Exception {
        Path work = Files.createTempDirectory("patchgrade-differential-bench-");
        Files.createDirectories(work.resolve("frozen/bin"));
        Path reference = Files.copy(Path.of(echo), work.resolve("frozen/bin/echo_arg"), StandardCopyOption.COPY_ATTRIBUTES);
        Path agreeing = Files.copy(Path.of(echo), work.resolve("echo_arg"), StandardCopyOption.COPY_ATTRIBUTES);
        Path generator = Files.writeString(work.resolve("gen.sh"), """
                #!/bin/sh
                i=0
                while [ "$i" -lt "$PATCHGRADE_COUNT" ]; do
                  echo "{\\"id\\":\\"case-$i\\",\\"args\\":[\\"case-$((PATCHGRADE_SEED + i))\\"]}"
                  i=$((i + 1))
                done
                """);
        Files.setPosixFilePermissions(generator, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path sidecar = work.resolve("reference.sha256");
        ThreeColumnGoal.freeze(settings(work, "freeze", SandboxSpec.Mode.OFF), List.of(reference.toString()), sidecar, false, GradeLog.SILENT);

        System.out.printf(Locale.ROOT, "%-44s %9s %12s %10s %14s%n", "differential of " + cases + " generated cases", "seconds", "ms per case",
                "ratio", "per launch");
        double floor = LaunchBench.floorWithCpu(floorProgram, silent, 2 * cases, List.of("case-0"))[0];
        System.out.printf(Locale.ROOT, "%-44s %9s %12.3f %9.2fx %13.2fx%n", "floor (2 launches of the C loop a case)", "", 2 * floor, 2.0, 1.0);
        double generatorMs = generatorMillis(generator, cases);
        System.out.printf(Locale.ROOT, "%-44s %9.3f %12.3f%n", "the generator alone, 2 runs (no sandbox)", generatorMs / 1000, generatorMs / cases);
        Map<String, List<Double>> ratios = new LinkedHashMap<>();
        for (int pass = 0; pass <= ROUNDS; pass++) {
            for (SandboxSpec.Mode mode : List.of(SandboxSpec.Mode.OFF, SandboxSpec.Mode.REQUIRED)) {
                for (int workers : new int[] {1, 2}) {
                    String kind = "agreeing, sandbox " + mode.wireName() + ", parallel " + workers;
                    double before = LaunchBench.floorWithCpu(floorProgram, silent, 2 * cases, List.of("case-0"))[0];
                    double seconds = grade(work, "agree-" + workers, mode, workers, reference, sidecar, agreeing, generator, cases, 1);
                    double launchFloor = (before + LaunchBench.floorWithCpu(floorProgram, silent, 2 * cases, List.of("case-0"))[0]) / 2;
                    double perCase = seconds * 1000 / cases;
                    if (pass > 0) {
                        ratios.computeIfAbsent(kind, k -> new ArrayList<>()).add(perCase / launchFloor);
                    }
                    System.out.printf(Locale.ROOT, "%-44s %9.2f %12.3f %9.2fx %13.2fx%n", kind + (pass == 0 ? " (first)" : " (round " + pass + ")"),
                            seconds, perCase, perCase / launchFloor, perCase / launchFloor / 2);
                }
            }
        }
        System.out.printf(Locale.ROOT, "%-44s %9s %12s %10s%n", "over " + ROUNDS + " rounds", "", "median", "per launch");
        ratios.forEach((kind, values) -> {
            double median = values.stream().sorted().toList().get(values.size() / 2);
            System.out.printf(Locale.ROOT, "%-44s %9s %11.2fx %13.2fx%n", kind, "", median, median / 2);
        });
        // Every case differs and is shrunk: what a failing grade costs, in run pairs and time.
        int shrunkCases = Math.min(cases, 200);
        for (SandboxSpec.Mode mode : List.of(SandboxSpec.Mode.OFF, SandboxSpec.Mode.REQUIRED)) {
            double launchFloor = LaunchBench.floorWithCpu(floorProgram, silent, 2 * shrunkCases, List.of("case-0"))[0];
            double seconds = grade(work, "differ", mode, 2, reference, sidecar, Path.of(silent), generator, shrunkCases, 0);
            JsonNode report = JsonReports.MAPPER.readTree(work.resolve("reports/patchgrade.differential.differ.json").toFile());
            double pairs = 0;
            for (JsonNode c : report.path("cases")) {
                pairs += 1 + c.path("shrunk").path("run_pairs").asInt();
            }
            double perCase = seconds * 1000 / shrunkCases;
            System.out.printf(Locale.ROOT, "%-44s %9.2f %12.3f %9.2fx %13.2fx  (%.1f run pairs a case)%n", "every case differs and is shrunk, sandbox "
                    + mode.wireName() + ", parallel 2", seconds, perCase, perCase / launchFloor, perCase / launchFloor / (2 * pairs / shrunkCases),
                    pairs / shrunkCases);
        }
        try (var files = Files.walk(work)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private static GoalSettings settings(Path work, String execution, SandboxSpec.Mode mode) {
        return new GoalSettings("differential", execution, work.resolve("reports"), work.resolve("out"), work, Map.of())
                .withSandbox(SandboxSettings.auto().withMode(mode));
    }

    /** Seconds of one grade; {@code agree} 1 expects every case to agree, 0 every case to differ. */
    private static double grade(Path work, String execution, SandboxSpec.Mode mode, int workers, Path reference, Path sidecar, Path candidate,
            Path generator, int cases, int agree) throws Exception {
        DifferentialGoal.Options options = DifferentialGoal.builder(settings(work, execution, mode))
                .reference(List.of(reference.toString()))
                .candidate(List.of(candidate.toString()))
                .referenceDigest(sidecar)
                .generator(List.of(generator.toString()))
                .count(cases)
                .seed(new Seed(1, true))
                .parallel(workers)
                .build();
        long start = System.nanoTime();
        GoalResult result = DifferentialGoal.grade(options, GradeLog.SILENT);
        double seconds = (System.nanoTime() - start) / 1e9;
        if (result.error() != null || (agree == 1) == result.failed()) {
            throw new IllegalStateException("bench differential " + execution + " ended unexpectedly: " + result);
        }
        return seconds;
    }

    private static double generatorMillis(Path generator, int cases) throws Exception {
        long start = System.nanoTime();
        for (int run = 0; run < 2; run++) {
            ProcessBuilder builder = new ProcessBuilder(generator.toString()).redirectErrorStream(true);
            builder.environment().put("PATCHGRADE_SEED", "1");
            builder.environment().put("PATCHGRADE_COUNT", Integer.toString(cases));
            Process process = builder.start();
            process.getInputStream().readAllBytes();
            process.waitFor();
        }
        return (System.nanoTime() - start) / 1e6;
    }
}
