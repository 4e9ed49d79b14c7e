package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.Fixtures;
import dev.patchgrade.core.GradeLog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The child's peak RSS must be its own, not the JVM's: this test holds 320 MiB of live heap while
 * it launches, then compares with GNU time run from a shell (a small parent).
 */
class PeakRssTest {
    private static final long HELD_MIB = 320;

    @Test
    void peakRssMatchesGnuTimeWhileTheJvmHoldsALargeHeap(@TempDir Path dir) throws Exception {
        List<byte[]> ballast = new ArrayList<>();
        for (int i = 0; i < HELD_MIB; i++) {
            byte[] block = new byte[1 << 20];
            for (int j = 0; j < block.length; j += 4096) {
                block[j] = 1;
            }
            ballast.add(block);
        }
        long jvmRssKb = ProcessHandle.current().pid() > 0 ? selfRssKb() : 0;
        assertThat(jvmRssKb).as("the JVM really holds the ballast").isGreaterThan(HELD_MIB * 1024);

        // GNU time forks its child, which starts with time's own pages: the kernel counts that copy's peak as the
        // child's, so GNU time never reports less than its own size. /bin/true is smaller than time itself.
        long gnuOwn = min(3, () -> gnuTimeKb(List.of("/bin/true"), dir));
        try (Launcher launcher = Launchers.open(GradeLog.SILENT)) {
            for (List<String> command : List.of(List.of("/bin/true"), List.of(Fixtures.command("touch_mb"), "0"),
                    List.of(Fixtures.command("touch_mb"), "50"))) {
                long ours = min(3, () -> launcher.launch(LaunchRequest.of(command)).usage().maxRssKb());
                long gnu = min(3, () -> gnuTimeKb(command, dir));
                // Tighter than the 512 KB the issue allows: a dynamically linked helper inflates /bin/true by about 450 KB.
                long tolerance = Math.max(256, gnu * 5 / 100);
                // Where GNU time shows its own size, the program's peak is smaller: it is an upper bound only.
                long lowest = gnu <= gnuOwn + tolerance ? gnu / 2 : gnu - tolerance;
                assertThat(ours).as("%s: ours %d KB, /usr/bin/time %d KB (%d KB for /bin/true)", command, ours, gnu, gnuOwn)
                        .isBetween(lowest, gnu + tolerance);
                assertThat(ours).isLessThan(jvmRssKb / 2);
            }
        }
        assertThat(ballast).hasSize((int) HELD_MIB);
    }

    interface Measure {
        long kb() throws Exception;
    }

    private static long min(int runs, Measure measure) throws Exception {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < runs; i++) {
            best = Math.min(best, measure.kb());
        }
        return best;
    }

    private static long gnuTimeKb(List<String> command, Path dir) throws IOException, InterruptedException {
        Path report = dir.resolve("time.txt");
        String quoted = String.join(" ", command);
        // The shell is a small parent: GNU time's child inherits only the shell's high-water mark.
        Process process = new ProcessBuilder("/bin/sh", "-c", "exec /usr/bin/time -f %M -o " + report + " " + quoted + " >/dev/null")
                .redirectErrorStream(true).start();
        process.getInputStream().readAllBytes();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).isZero();
        return Long.parseLong(Files.readString(report, StandardCharsets.US_ASCII).strip());
    }

    private static long selfRssKb() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return 0;
    }
}
