package dev.patchgrade.core.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.count.InstructionCount;
import dev.patchgrade.core.grade.GoalSettings;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The envelope JSON report byte for byte, as SPEC fixes it and the ITs and the HTML summary read it: the
 * keys in order, {@code measured} and each run with one key per ceiling in {@link Ceiling} order, nulls
 * written, optional keys only where they say something.
 */
class EnvelopeReportJsonTest {
    @TempDir
    Path dir;

    @Test
    void aRejectionWithAFailedCountAndHostDifferences() throws IOException {
        InstructionCount count = InstructionCount.failed("perf", "perf_event_open is not permitted");
        assertThat(written(rejected(), count)).isEqualTo(expected("envelope-rejected.json"));
    }

    @Test
    void anAcceptanceWithoutCounterOrHostDifferences() throws IOException {
        assertThat(written(accepted(), null)).isEqualTo(expected("envelope-accepted.json"));
    }

    @Test
    void aCountedAcceptance() throws IOException {
        assertThat(written(accepted(), InstructionCount.of(12345, "valgrind").timed(830))).isEqualTo(expected("envelope-counted.json"));
    }

    private static EnvelopeRun run(Integer exit, String signal, boolean timedOut, long rss, Long tree, int leftovers) {
        return new EnvelopeRun(exit, signal, timedOut, false, rss, 1500L, 300L, 42, 120L, 0L, null, 8L, "ab12", "out", "err", tree, leftovers);
    }

    private EnvelopeVerdict rejected() {
        Map<Ceiling, Long> graded = new EnumMap<>(Ceiling.class);
        graded.put(Ceiling.RSS, 2048L);
        graded.put(Ceiling.WALL, 42L);
        List<EnvelopeRun> runs = List.of(run(null, "SIGSEGV", false, 2048, null, 0), run(0, null, true, 4096, 5000L, 2));
        return new EnvelopeVerdict(List.of("rss", "host_mismatch"), List.of(new EnvelopeVerdict.Breach(Ceiling.RSS, 2048, 1024)), graded, runs,
                List.of("cpu: Xeon -> EPYC"));
    }

    private EnvelopeVerdict accepted() {
        Map<Ceiling, Long> graded = new EnumMap<>(Ceiling.class);
        graded.put(Ceiling.RSS, 900L);
        return new EnvelopeVerdict(List.of(), List.of(), graded, List.of(run(0, null, false, 900, 1000L, 0)), List.of());
    }

    private String written(EnvelopeVerdict verdict, InstructionCount count) throws IOException {
        GoalSettings settings = new GoalSettings("envelope", "e", dir.resolve("reports"), dir.resolve("out"), dir, Map.of());
        Map<Ceiling, Long> ceilings = new EnumMap<>(Ceiling.class);
        ceilings.put(Ceiling.WALL, 100L);
        ceilings.put(Ceiling.RSS, 1024L);
        Envelope envelope = new Envelope(dir.resolve("envelope.json"), List.of("./a", "-x"), 2.5, ceilings, null, null, null);
        EnvelopeGrading.report(new dev.patchgrade.core.grade.GoalReports(settings, dev.patchgrade.core.report.EnvelopeSection::new), settings, Shard.ALL, new EnvelopeResult("run", List.of("/bin/a", "-x"), envelope, verdict, count, 1.25), GradeLog.SILENT);
        return Files.readString(settings.jsonReport()).replace(dir.toString(), "$DIR");
    }

    private static String expected(String name) throws IOException {
        try (InputStream in = EnvelopeReportJsonTest.class.getResourceAsStream(name)) {
            return in == null ? "(no " + name + ")" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
