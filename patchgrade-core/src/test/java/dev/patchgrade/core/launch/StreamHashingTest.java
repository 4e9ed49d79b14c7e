package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StreamHashingTest {
    @TempDir
    Path dir;

    @Test
    void everySizeAroundTheReadBlockHashesWholeWithItsHeadAndTail() throws Exception {
        int excerpt = 100;
        for (int size : new int[] {0, 1, 99, 100, 101, 4096, 65_535, 65_536, 65_537, 200_003}) {
            byte[] content = new byte[size];
            for (int i = 0; i < size; i++) {
                content[i] = (byte) (i * 31 + size);
            }
            Path file = Files.write(dir.resolve("out" + size), content);
            StreamDigest digest = StreamHashing.digestFile(file, excerpt, false);
            String expected = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
            assertThat(digest.sha256()).as("size %d", size).isEqualTo(expected);
            assertThat(digest.bytes()).isEqualTo(size);
            assertThat(digest.head()).isEqualTo(Arrays.copyOf(content, Math.min(size, excerpt)));
            int tail = Math.min(excerpt, Math.max(0, size - excerpt));
            assertThat(digest.tail()).isEqualTo(Arrays.copyOfRange(content, size - tail, size));
        }
    }
}
