package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** One cached helper per source version and target machine, under a name that stays put across builds. */
class HelperCacheTest {
    private final Path root = Path.of("/cache");
    private final byte[] source = "int main(void) { return 0; }".getBytes(StandardCharsets.UTF_8);

    @Test
    void theSameSourceForTheSameMachineFindsTheSameHelper() {
        Path directory = HelperCache.directory(root, source, "x86_64-linux-gnu");
        assertThat(directory.getParent()).isEqualTo(root);
        assertThat(directory.getFileName().toString()).matches("helper-[0-9a-f]{16}");
        assertThat(HelperCache.directory(root, source.clone(), "x86_64-linux-gnu")).isEqualTo(directory);
    }

    @Test
    void anotherSourceOrMachineIsAnotherHelper() {
        Path directory = HelperCache.directory(root, source, "x86_64-linux-gnu");
        assertThat(HelperCache.directory(root, source, "aarch64-linux-gnu")).isNotEqualTo(directory);
        assertThat(HelperCache.directory(root, "int main(void) { return 1; }".getBytes(StandardCharsets.UTF_8), "x86_64-linux-gnu"))
                .isNotEqualTo(directory);
    }

    @Test
    void aHelperNeverBuiltIsNotBuiltYetRatherThanTampered() {
        Path missing = root.resolve("helper-none");
        assertThat(HelperCache.unfit(missing, missing.resolve(HelperCache.BINARY_NAME))).isEqualTo(HelperCache.NOT_BUILT);
    }
}
