package dev.patchgrade.core.digest;

import dev.patchgrade.core.hashing.Sha256;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NormalizerTest {
    @Test
    void hashesTheRewrittenLines(@TempDir Path dir) throws Exception {
        Normalizer normalizer = new Normalizer(List.of(new NormalizeRule("0x[0-9a-f]+", "0xADDR"), new NormalizeRule("\\d{2}:\\d{2}", "HH:MM")));
        Path a = dir.resolve("a");
        Path b = dir.resolve("b");
        Files.writeString(a, "ptr 0x7ffd1 at 12:30\nsame\n");
        Files.writeString(b, "ptr 0x55aa0 at 09:01\nsame\n");
        assertThat(normalizer.sha256(a)).isEqualTo(normalizer.sha256(b))
                .isEqualTo(Sha256.of("ptr 0xADDR at HH:MM\nsame\n".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void leavesArbitraryBytesAloneWhereNothingMatches(@TempDir Path dir) throws Exception {
        byte[] bytes = {(byte) 0xff, 0, (byte) 0xc3, '\n', 'x'};
        Path file = dir.resolve("bin");
        Files.write(file, bytes);
        assertThat(new Normalizer(List.of(new NormalizeRule("nomatch", ""))).sha256(file)).isEqualTo(Sha256.of(bytes));
    }

    @Test
    void badRulesAreParameterErrors() {
        assertThatThrownBy(() -> new NormalizeRule("(unclosed", "x")).hasMessageContaining("not a valid regular expression");
        assertThatThrownBy(() -> new NormalizeRule("", "x")).hasMessageContaining("the normalize.pattern setting is missing from a rule of the normalize setting");
    }
}
