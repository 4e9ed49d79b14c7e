package dev.patchgrade.core.grade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OracleGuardTest {
    @Test
    void unchangedOraclesPass(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("cases.jsonl"), "{}\n");
        Files.createDirectories(dir.resolve("gold"));
        Files.writeString(dir.resolve("gold/a.json"), "{}");
        OracleGuard guard = OracleGuard.snapshot(List.of(file, dir.resolve("gold")));
        assertThatCode(guard::verifyUnchanged).doesNotThrowAnyException();
    }

    @Test
    void aChangedFileNamesTheFile(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("envelope.json"), "{}\n");
        OracleGuard guard = OracleGuard.snapshot(List.of(file));
        Files.writeString(file, "{\"max_rss_kb\": 999999}\n");
        assertThatThrownBy(guard::verifyUnchanged).hasMessageContaining("envelope.json").hasMessageContaining("oracle file changed");
    }

    @Test
    void aFileAddedToOrRemovedFromAGoldDirectoryIsATamper(@TempDir Path dir) throws Exception {
        Path gold = Files.createDirectories(dir.resolve("gold"));
        Files.writeString(gold.resolve("a.json"), "{}");
        OracleGuard guard = OracleGuard.snapshot(List.of(gold));
        Files.writeString(gold.resolve("b.json"), "{}");
        assertThatThrownBy(guard::verifyUnchanged).hasMessageContaining("gold");
        // Taken away again, the entries are as they were; the directory was still written while the goal ran (as when
        // a forged copy is swapped in and the original back), and its change time says so.
        Files.delete(gold.resolve("b.json"));
        assertThatThrownBy(guard::verifyUnchanged).hasMessageContaining("gold");
        OracleGuard again = OracleGuard.snapshot(List.of(gold));
        assertThatCode(again::verifyUnchanged).doesNotThrowAnyException();
        Files.delete(gold.resolve("a.json"));
        assertThatThrownBy(again::verifyUnchanged).hasMessageContaining("gold");
    }

    @Test
    void aGoldFileRewrittenAndPutBackIsATamperEvenWithItsTimeRestored(@TempDir Path dir) throws Exception {
        Path gold = Files.createDirectories(dir.resolve("gold"));
        Path file = Files.writeString(gold.resolve("a.json"), "{\"exit\":0}");
        java.nio.file.attribute.FileTime written = Files.getLastModifiedTime(file);
        OracleGuard guard = OracleGuard.snapshot(List.of(gold));
        // Same size, same modification time: only the change time, which no call can set back, tells.
        Files.writeString(file, "{\"exit\":1}");
        Files.setLastModifiedTime(file, written);
        assertThatThrownBy(guard::verifyUnchanged).hasMessageContaining("gold");
        guard = OracleGuard.snapshot(List.of(gold));
        Files.writeString(file, "{\"exit\":1}");
        Files.setLastModifiedTime(file, written);
        assertThatThrownBy(guard::verifyUnchanged).as("the very same bytes written again").hasMessageContaining("gold");
    }

    @Test
    void aDeletedOrCreatedOracleIsATamper(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("reference.sha256");
        OracleGuard guard = OracleGuard.snapshot(List.of(file));
        Files.writeString(file, "x");
        assertThatThrownBy(guard::verifyUnchanged).hasMessageContaining("reference.sha256");
    }

    @Test
    void aSymlinkedGoldDirectoryIsFingerprintedWhereItsFilesAre(@TempDir Path dir) throws Exception {
        Path real = Files.createDirectories(dir.resolve("shared/gold"));
        Path file = Files.writeString(real.resolve("a.json"), "{}");
        Path link = Files.createSymbolicLink(dir.resolve("gold"), real);
        Path linkedFile = Files.createSymbolicLink(real.resolve("b.json"), Files.writeString(dir.resolve("elsewhere.json"), "{}"));
        OracleGuard guard = OracleGuard.snapshot(List.of(link));
        assertThatCode(guard::verifyUnchanged).doesNotThrowAnyException();
        Files.writeString(file, "{\"poisoned\": true}");
        assertThatThrownBy(guard::verifyUnchanged).hasMessageContaining("gold");
        guard = OracleGuard.snapshot(List.of(link));
        Files.writeString(dir.resolve("elsewhere.json"), "{\"poisoned\": true}");
        assertThat(linkedFile).exists();
        assertThatThrownBy(guard::verifyUnchanged).as("a file linked into the gold directory counts too").hasMessageContaining("gold");
    }

    @Test
    void aSymbolicLinkLoopInAGoldDirectoryIsNamedWithItsFix(@TempDir Path dir) throws Exception {
        Path gold = Files.createDirectories(dir.resolve("gold/sub"));
        Files.writeString(gold.resolve("a.json"), "{}");
        Path loop = Files.createSymbolicLink(gold.resolve("up"), gold.getParent());
        assertThatThrownBy(() -> OracleGuard.snapshot(List.of(gold.getParent())))
                .isInstanceOf(dev.patchgrade.core.PatchgradeException.class)
                .hasMessageContaining(loop.toString()).hasMessageContaining("remove that link")
                .extracting(e -> ((dev.patchgrade.core.PatchgradeException) e).errorName()).isEqualTo("oracle_unreadable");
    }
}
