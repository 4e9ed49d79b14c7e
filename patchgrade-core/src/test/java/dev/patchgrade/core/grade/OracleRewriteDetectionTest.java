package dev.patchgrade.core.grade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.patchgrade.core.Fixtures;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.launch.LaunchRequest;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.launch.Launcher;
import dev.patchgrade.core.launch.Launchers;
import dev.patchgrade.core.launch.SandboxSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sandbox off: a candidate rewrites a gold file without a write(2) on its path, hoping the
 * identity fingerprint (inode, device, size, mtime, ctime) stays put. Every way changes the ctime.
 */
class OracleRewriteDetectionTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"mmap", "punch-hole", "hard-link", "exchange-twice"})
    void aGoldFileRewrittenBehindItsPathIsCaught(String how) throws Exception {
        Path gold = Files.createDirectories(dir.resolve("gold"));
        Path answer = gold.resolve("case1.out");
        Files.writeString(answer, "expected answer 0123456789\n");
        Files.writeString(gold.resolve("case2.out"), "expected answer 9876543210\n");
        Thread.sleep(20); // past the coarse clock tick the files were written in
        OracleGuard guard = OracleGuard.snapshot(List.of(gold));
        List<String> command = switch (how) {
            case "mmap" -> List.of(Fixtures.command("mmap_write"), answer.toString());
            case "punch-hole" -> List.of("fallocate", "-p", "-o", "0", "-l", "4096", answer.toString());
            case "hard-link" -> List.of("/bin/sh", "-c", "ln " + answer + " " + dir.resolve("alias") + " && printf 'FORGED' | dd of="
                    + dir.resolve("alias") + " conv=notrunc 2>/dev/null && rm " + dir.resolve("alias"));
            default -> List.of("python3", "-c", "import ctypes, sys\nc = ctypes.CDLL(None)\nfor _ in range(2):\n"
                    + "    assert c.renameat2(-100, sys.argv[1].encode(), -100, sys.argv[2].encode(), 2) == 0", answer.toString(),
                    gold.resolve("case2.out").toString()); // RENAME_EXCHANGE there and back
        };
        try (Launcher launcher = Launchers.open(GradeLog.SILENT, SandboxSpec.off())) {
            LaunchResult result = launcher.launch(LaunchRequest.of(command));
            Assumptions.assumeTrue(result.exitedZero(), how + ": " + result.outcome() + " " + result.stderr().excerpt());
        }
        assertThatThrownBy(guard::verifyUnchanged).as(how).hasMessageContaining("gold");
    }

    /**
     * Graded past the tuples a grade keeps, each case's gold file is read when its case runs: a candidate moves the
     * directory (or a subdirectory) aside, leaves a forged copy to be read, and moves the original back before the
     * check. The files keep their stat data; the directories' change times do not.
     */
    @ParameterizedTest
    @ValueSource(strings = {"root", "subdirectory"})
    void aGoldDirectoryMovedAsideForAForgedCopyAndBackIsCaught(String which) throws Exception {
        Path gold = Files.createDirectories(dir.resolve("gold"));
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Files.writeString(gold.resolve("case1.json"), "{\"case\": \"1\", \"exit\": 0}\n");
        Files.createDirectories(gold.resolve("sub"));
        Files.writeString(gold.resolve("sub/case2.json"), "{\"case\": \"2\", \"exit\": 0}\n");
        Thread.sleep(20); // past the coarse clock tick the files were written in
        OracleGuard guard = OracleGuard.snapshot(List.of(gold));
        Path moved = which.equals("root") ? gold : gold.resolve("sub");
        Path aside = outside.resolve("orig");
        String script = "mv " + moved + " " + aside + " && mkdir " + moved + " && printf '{\"case\": \"2\", \"exit\": 3}' > " + moved
                + "/case2.json && cat " + moved + "/case2.json && rm -r " + moved + " && mv " + aside + " " + moved;
        try (Launcher launcher = Launchers.open(GradeLog.SILENT, SandboxSpec.off())) {
            LaunchResult result = launcher.launch(LaunchRequest.of(List.of("/bin/sh", "-c", script)));
            assertThat(result.exitedZero()).as(which + ": " + result.stderr().excerpt()).isTrue();
        }
        assertThat(Files.readString(gold.resolve("sub/case2.json"))).as("the original is back").contains("\"exit\": 0");
        assertThatThrownBy(guard::verifyUnchanged).as(which).isInstanceOf(PatchgradeException.class).hasMessageContaining("gold")
                .extracting(e -> ((PatchgradeException) e).errorName()).isEqualTo("oracle_tampered");
    }
}
