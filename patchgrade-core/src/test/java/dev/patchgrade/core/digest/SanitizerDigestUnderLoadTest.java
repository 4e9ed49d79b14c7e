package dev.patchgrade.core.digest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.patchgrade.core.Fixtures;
import dev.patchgrade.core.GradeLog;
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
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An ASan+UBSan build's digest, its cases timed near the bucket edges and run through a bash wrapper (as
 * jsoncpp's are), recorded on a quiet machine and graded while four busy loops hold both cores: on the
 * default CPU time no case drifts. The same grade on wall time drifts for many of them (the shell waits,
 * its child queues behind the loops, and its wall time grows several times over): bench/time-basis.sh
 * gives the spread of both, which this test does not assert, since times are the machine's.
 */
class SanitizerDigestUnderLoadTest {
    /** lt_40ms, lt_160ms, gt_160ms: widened by the default slack 2 to 0-80, 20-320 and from 80 ms. */
    private static final String BUCKETS = "40,160";
    private static final long[] EDGES = {40, 160};
    /** The cases' CPU times: log-spaced from 12 to 320 ms, about 10% apart, so that both edges have cases close on either side. */
    private static final int CASES = 36;
    private static final double FASTEST_MS = 12;
    private static final double SLOWEST_MS = 320;
    private static final int BUSY_LOOPS = 4;

    @TempDir
    Path dir;

    @Test
    void aSanitizerDigestRecordedQuietRaisesNoTimeBucketFailureWhileBusyLoopsHoldEveryCore() throws Exception {
        Path wrapper = Files.writeString(dir.resolve("run-case.sh"), "#!/bin/bash\n# the project's test wrapper: runs the binary as its child\n"
                + "\"$1\" \"$2\"\nexit $?\n");
        List<String> command = List.of("/bin/bash", wrapper.toString(), Fixtures.command("heap_work.asan"));
        Path cases = Files.writeString(dir.resolve("cases.txt"), String.join("\n", rounds(command)) + "\n");
        Path gold = dir.resolve("gold");

        DigestGoal.record(options("record-digest", cases, gold, command), GradeLog.SILENT);
        List<JsonNode> recorded = new ArrayList<>();
        try (Stream<Path> files = Files.list(gold)) {
            for (Path file : files.toList()) {
                recorded.add(JsonReports.MAPPER.readTree(file.toFile()));
            }
        }
        assertThat(recorded).allSatisfy(g -> {
            assertThat(g.path("time_basis").asText()).isEqualTo("cpu");
            assertThat(g.path("sanitizer").asText()).as("the sanitizer build runs clean").isEqualTo("clean");
        });
        long nearAnEdge = recorded.stream().mapToLong(g -> g.path("time_ms").asLong()).filter(SanitizerDigestUnderLoadTest::near).count();
        assertThat(nearAnEdge).as("recorded times within 1.6x of a bucket edge: the cases this test is about").isGreaterThanOrEqualTo(recorded.size() / 3);
        assertThat(recorded.stream().map(g -> g.path("time_bucket").asText()).distinct()).as("cases in every bucket")
                .containsExactlyInAnyOrder("lt_40ms", "lt_160ms", "gt_160ms");

        List<Process> loops = new ArrayList<>();
        GoalResult result;
        DigestGoal.Options grading = options("digest", cases, gold, command);
        try {
            for (int i = 0; i < BUSY_LOOPS; i++) {
                // Each in a session of its own, as another build on the agent is: with autogroup scheduling (the default
                // of most distributions) loops sharing this JVM's session would weigh as one, beside each run's own.
                loops.add(new ProcessBuilder("setsid", "/bin/sh", "-c", "while :; do :; done").start());
            }
            result = DigestGoal.grade(grading, GradeLog.SILENT);
        } finally {
            for (Process loop : loops) {
                loop.destroyForcibly();
            }
            for (Process loop : loops) {
                loop.waitFor();
            }
        }
        assertThat(result.error()).isNull();
        assertThat(result.failures()).as("cases that drifted under load").isEmpty();
        JsonNode report = JsonReports.MAPPER.readTree(grading.settings().jsonReport().toFile());
        assertThat(report.path("time_basis").asText()).isEqualTo("cpu");
        assertThat(report.path("graded").asLong()).isEqualTo(recorded.size());
    }

    private static boolean near(long millis) {
        for (long edge : EDGES) {
            if (millis >= edge / 1.6 && millis <= edge * 1.6) {
                return true;
            }
        }
        return false;
    }

    private DigestGoal.Options options(String goal, Path cases, Path gold, List<String> command) {
        GoalSettings settings = new GoalSettings(goal, "asan", dir.resolve("reports"), dir.resolve("out"), dir, Map.of());
        return DigestGoal.Options.builder(settings).cases(cases).gold(gold).command(command).sanitizer(Sanitizer.ASAN_UBSAN)
                .timeoutSeconds(30).buckets(TimeBuckets.parse(BUCKETS)).timeBucketReruns(3).timeSamples(3).parallel(2).build();
    }

    /**
     * The cases: rounds of work whose CPU time, through the wrapper, is log-spaced over {@link #FASTEST_MS} to
     * {@link #SLOWEST_MS}, from the CPU time of no rounds and of a calibration run on this machine.
     */
    private static List<String> rounds(List<String> command) {
        try (Launcher launcher = Launchers.open(GradeLog.SILENT)) {
            long idle = cpuMicros(launcher, command, 0);
            long calibration = 400;
            double perRound = Math.max(1.0, (cpuMicros(launcher, command, calibration) - idle) / (double) calibration);
            List<String> rounds = new ArrayList<>();
            for (int i = 0; i < CASES; i++) {
                double target = FASTEST_MS * Math.pow(SLOWEST_MS / FASTEST_MS, i / (double) (CASES - 1)) * 1000;
                rounds.add(Long.toString(Math.max(1, Math.round((target - idle) / perRound))));
            }
            return rounds.stream().distinct().toList();
        }
    }

    /** The fastest CPU time of three runs: a busy machine at calibration only adds to it. */
    private static long cpuMicros(Launcher launcher, List<String> command, long rounds) {
        long fastest = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            List<String> run = new ArrayList<>(command);
            run.add(Long.toString(rounds));
            LaunchResult result = launcher.launch(LaunchRequest.of(run).withTimeout(Duration.ofSeconds(60)));
            assertThat(result.exitedZero()).as("calibration run of " + run + ": " + result.outcome()).isTrue();
            fastest = Math.min(fastest, result.usage().userMicros() + result.usage().systemMicros());
        }
        return fastest;
    }
}
