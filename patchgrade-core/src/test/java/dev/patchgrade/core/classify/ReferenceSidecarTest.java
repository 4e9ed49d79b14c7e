package dev.patchgrade.core.classify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReferenceSidecarTest {
    private static final String HEX = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

    @TempDir
    Path dir;

    private String read(String content) throws Exception {
        List<String> digests = readAll(content);
        assertThat(digests).hasSize(1);
        return digests.get(0);
    }

    private List<String> readAll(String content) throws Exception {
        Path file = dir.resolve("reference.sha256");
        Files.writeString(file, content);
        return ReferenceSidecar.read(file);
    }

    @Test
    void readsSha256sumLinesWithOrWithoutThePath() throws Exception {
        assertThat(read(HEX + "  bin/ref_billing\n")).isEqualTo(HEX);
        assertThat(read(HEX + " *bin/ref_billing\n")).isEqualTo(HEX);
        assertThat(read(HEX + "\n")).isEqualTo(HEX);
        assertThat(read(HEX.toUpperCase() + "  x")).isEqualTo(HEX);
        assertThat(read("\n" + HEX + "  path with spaces/ref\n\n")).isEqualTo(HEX);
    }

    @Test
    void aMissingSidecarIsNull() {
        assertThat(ReferenceSidecar.read(dir.resolve("none"))).isNull();
    }

    @Test
    void rejectsOtherFormats() {
        assertThatThrownBy(() -> read("sha256:" + HEX)).hasMessageContaining("sha256sum format").hasMessageContaining("freeze-reference");
        assertThatThrownBy(() -> read(HEX.substring(1) + "  x")).hasMessageContaining("sha256sum format");
        assertThatThrownBy(() -> readAll(HEX + "  a\nnot a digest  b\n")).hasMessageContaining("line 2 is not in sha256sum format");
        assertThatThrownBy(() -> readAll("")).hasMessageContaining("line 1 is not in sha256sum format");
    }

    /** An interpreted reference freezes its script too: a line a file, the executable first. */
    @Test
    void readsOneDigestPerFrozenFileInOrder() throws Exception {
        String other = HEX.replace('9', '8');
        assertThat(readAll(HEX + "  /bin/sh\n" + other + "  frozen/ref.sh\n")).containsExactly(HEX, other);
    }

    @Test
    void hashesAFileAndWritesTheSameFormat(@TempDir Path other) throws Exception {
        Path binary = other.resolve("ref");
        Files.writeString(binary, "test");
        assertThat(ReferenceSidecar.sha256(binary)).isEqualTo(HEX);
        assertThat(read(ReferenceSidecar.line(HEX, "bin/ref"))).isEqualTo(HEX);
    }
}
