package dev.patchgrade.core.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.patchgrade.core.digest.DigestTuple;
import dev.patchgrade.core.digest.GoldWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What patchgrade writes is readable by others as far as the umask allows: 0644 files and 0755 folders under umask 022. */
class FileModesTest {
    @TempDir
    Path dir;

    /** This process's umask, from the kernel (Linux 4.7+); the test is skipped where it cannot be read. */
    private static int umask() throws Exception {
        Path status = Path.of("/proc/self/status");
        assumeTrue(Files.isReadable(status), "no /proc/self/status here");
        String line = Files.readAllLines(status).stream().filter(l -> l.startsWith("Umask:")).findFirst().orElse(null);
        assumeTrue(line != null, "the kernel does not report the umask");
        return Integer.parseInt(line.substring("Umask:".length()).strip(), 8);
    }

    private static int mode(Path path) throws Exception {
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(path);
        int mode = 0;
        for (PosixFilePermission permission : PosixFilePermission.values()) {
            if (permissions.contains(permission)) {
                mode |= 1 << (8 - permission.ordinal());
            }
        }
        return mode;
    }

    @Test
    void reportsGoldAndPagesGetTheUmasksModes() throws Exception {
        int umask = umask();
        int file = 0666 & ~umask;
        int folder = 0777 & ~umask;
        Path reports = dir.resolve("reports");
        JsonReports.write(Map.of("goal", "digest", "verdict", "pass", "cases", List.of()), reports.resolve("patchgrade.digest.x.json"));
        JUnitXmlWriter.write(new TestSuiteReport("s", "c", 0, List.of(CaseOutcome.passed("a", 0, null, null))), reports.resolve("TEST-x.xml"));
        SummaryRecords.write(reports, "digest.x", new DigestSection(), "{\"goal\":\"digest\",\"verdict\":\"pass\",\"cases\":[]}");
        HtmlSummary.refresh(reports, "m");
        AtomicFiles.write(dir.resolve("envelope.json"), "{}".getBytes());
        Path gold = dir.resolve("gold");
        GoldWriter.replace(gold, List.of(new DigestTuple("a", 0, "x", "y", dev.patchgrade.core.digest.SanitizerClass.CLEAN, dev.patchgrade.core.digest.Buckets.label("lt_50ms"))), null, List.of());

        assertThat(Integer.toOctalString(mode(reports))).isEqualTo(Integer.toOctalString(folder));
        assertThat(Integer.toOctalString(mode(gold))).as("the gold folder").isEqualTo(Integer.toOctalString(folder));
        Path records = reports.resolve(ExecutionSummary.DIRECTORY);
        assertThat(Integer.toOctalString(mode(records))).as("the summary records' folder").isEqualTo(Integer.toOctalString(folder));
        try (Stream<Path> written = Stream.concat(Stream.concat(Files.list(reports).filter(Files::isRegularFile), Files.list(records)),
                Stream.concat(Files.list(gold), Stream.of(dir.resolve("envelope.json"))))) {
            List<Path> files = written.toList();
            assertThat(files).hasSizeGreaterThanOrEqualTo(7);
            for (Path path : files) {
                assertThat(Integer.toOctalString(mode(path))).as(path.toString()).isEqualTo(Integer.toOctalString(file));
            }
        }
    }
}
