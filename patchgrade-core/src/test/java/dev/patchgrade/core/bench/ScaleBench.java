package dev.patchgrade.core.bench;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.digest.DigestTuple;
import dev.patchgrade.core.digest.GoldStore;
import dev.patchgrade.core.digest.GoldWriter;
import dev.patchgrade.core.digest.TimeBuckets;
import dev.patchgrade.core.grade.OracleGuard;
import dev.patchgrade.core.launch.LaunchRequest;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.launch.Launcher;
import dev.patchgrade.core.launch.Launchers;
import dev.patchgrade.core.launch.SandboxSpec;
import dev.patchgrade.core.launch.StreamHashing;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where a digest grade's time goes per case, one component at a time, each interleaved in rounds with
 * the C floor so that the machine's load hits all of them alike: a launch with its output in the
 * launcher's scratch slot or kept as two new files (as the goal keeps them), sandbox off and on; and
 * per gold file, reading a gold directory, fingerprinting it as the oracle guard does, and writing a
 * candidate directory; and re-reading a small stream from its file to hash it.
 * Usage: ScaleBench PROGRAM FLOOR_PROGRAM LAUNCHES GOLD_DIRECTORY
 */
public final class ScaleBench {
    private static final int ROUNDS = 5;

    private ScaleBench() {}

    public static void main(String[] args) throws Exception {
        String program = args[0];
        String floorProgram = args[1];
        int launches = Integer.parseInt(args[2]);
        Path gold = Path.of(args[3]);
        Path work = Files.createTempDirectory("patchgrade-scale-bench-");
        String[] names = {"C posix_spawn+wait4 loop (floor)", "launch, scratch slot, sandbox off", "launch, kept files, sandbox off",
            "launch, scratch slot, sandbox on", "launch, kept files, sandbox on"};
        double[][] ms = new double[names.length][ROUNDS];
        int goldFiles;
        double[] read = new double[ROUNDS];
        double[] fingerprint = new double[ROUNDS];
        double[] write = new double[ROUNDS];
        double[] rehash = new double[ROUNDS];
        try (Launcher open = Launchers.open(GradeLog.SILENT);
                Launcher boxed = Launchers.open(GradeLog.SILENT, SandboxSpec.of(SandboxSpec.Mode.REQUIRED).showingAlso(List.of(java.nio.file.Path.of(program))))) {
            LaunchRequest request = LaunchRequest.of(List.of(program, "case-000001"));
            for (int i = 0; i < 3000; i++) {
                open.launch(request);
                if (i % 4 == 0) {
                    boxed.launch(request);
                }
            }
            GoldStore.Gold recorded = GoldStore.read(gold, TimeBuckets.parse(TimeBuckets.DEFAULT));
            List<DigestTuple> tuples = new ArrayList<>(recorded.caseIds().stream().map(recorded::tuple).toList());
            goldFiles = tuples.size();
            for (int round = 0; round < ROUNDS; round++) {
                ms[0][round] = floor(floorProgram, program, launches, work);
                ms[1][round] = sequential(open, request, launches, null);
                ms[2][round] = sequential(open, request, launches, work.resolve("kept-off-" + round));
                ms[3][round] = sequential(boxed, request, launches, null);
                ms[4][round] = sequential(boxed, request, launches, work.resolve("kept-on-" + round));
                long start = System.nanoTime();
                GoldStore.read(gold, TimeBuckets.parse(TimeBuckets.DEFAULT));
                read[round] = (System.nanoTime() - start) / 1e3 / goldFiles;
                start = System.nanoTime();
                OracleGuard.snapshot(List.of(gold));
                fingerprint[round] = (System.nanoTime() - start) / 1e3 / goldFiles;
                start = System.nanoTime();
                GoldWriter.replace(work.resolve("cand-" + round), tuples, null, List.of());
                write[round] = (System.nanoTime() - start) / 1e3 / goldFiles;
                Path stream = Files.writeString(work.resolve("stream-" + round), "case-000001\n");
                start = System.nanoTime();
                for (int i = 0; i < launches; i++) {
                    StreamHashing.digestFile(stream, StreamHashing.DEFAULT_EXCERPT_BYTES, false);
                }
                rehash[round] = (System.nanoTime() - start) / 1e3 / launches;
            }
        }
        System.out.printf(Locale.ROOT, "%d rounds of %d launches per path; median ms per launch and median ratio to the same round's floor%n",
                ROUNDS, launches);
        for (int path = 0; path < names.length; path++) {
            double[] ratios = new double[ROUNDS];
            for (int round = 0; round < ROUNDS; round++) {
                ratios[round] = ms[path][round] / ms[0][round];
            }
            System.out.printf(Locale.ROOT, "%-38s %8.3f %7.2fx%n", names[path], median(ms[path]), median(ratios));
        }
        System.out.printf(Locale.ROOT, "per gold file (%d files), median us: GoldStore.read %.1f, OracleGuard fingerprint %.1f, "
                + "GoldStore.replace (candidate files) %.1f%nre-reading and hashing a 12-byte stream from its file, median us: %.1f%n",
                goldFiles, median(read), median(fingerprint), median(write), median(rehash));
        try (var files = Files.walk(work)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** @param keep where each launch keeps its two streams as new files, as the digest goal does; {@code null}: the scratch slot */
    private static double sequential(Launcher launcher, LaunchRequest request, int count, Path keep) {
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            LaunchResult result = launcher.launch(keep == null ? request : request.keepingOutputAs(keep.resolve("case-" + i)));
            if (result.exitCode() == null || result.exitCode() != 0) {
                throw new IllegalStateException("the trivial program failed: " + result);
            }
        }
        return (System.nanoTime() - start) / 1e6 / count;
    }

    private static double floor(String floorProgram, String program, int count, Path work) throws Exception {
        // Its children write their line to a file, as launched children do; its own figure is the last line.
        Path out = work.resolve("floor.out");
        Process process = new ProcessBuilder(floorProgram, program, Integer.toString(count), "case-000001")
                .redirectOutput(out.toFile()).start();
        process.waitFor();
        List<String> lines = Files.readAllLines(out);
        return Double.parseDouble(lines.get(lines.size() - 1).strip());
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
