package dev.patchgrade.core.classify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReferenceSidecarTest {
    private static final String HEX = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

    @TempDir
    Path dir;

    private String read(String content) throws Exception {
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
        assertThatThrownBy(() -> read(HEX + "  a\n" + HEX + "  b\n")).hasMessageContaining("expected one line");
    }

    @Test
    void hashesAFileAndWritesTheSameFormat(@TempDir Path other) throws Exception {
        Path binary = other.resolve("ref");
        Files.writeString(binary, "test");
        assertThat(ReferenceSidecar.sha256(binary)).isEqualTo(HEX);
        assertThat(read(ReferenceSidecar.line(HEX, "bin/ref"))).isEqualTo(HEX);
    }
}
