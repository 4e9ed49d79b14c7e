package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** One cached helper per source version and target machine, under a name that stays put across builds. */
class HelperCacheTest {
    private final Path root = Path.of("/cache");
    private final Map<String, byte[]> sources = sources("int main(void) { return run(); }", "int run(void) { return 0; }");

    private static Map<String, byte[]> sources(String main, String run) {
        Map<String, byte[]> sources = new LinkedHashMap<>();
        sources.put("pg-helper.h", "int run(void);".getBytes(StandardCharsets.UTF_8));
        sources.put("pg-main.c", main.getBytes(StandardCharsets.UTF_8));
        sources.put("pg-run.c", run.getBytes(StandardCharsets.UTF_8));
        return sources;
    }

    @Test
    void theSameSourceForTheSameMachineFindsTheSameHelper() {
        Path directory = HelperCache.directory(root, sources, "x86_64-linux-gnu");
        assertThat(directory.getParent()).isEqualTo(root);
        assertThat(directory.getFileName().toString()).matches("helper-[0-9a-f]{16}");
        assertThat(HelperCache.directory(root, new LinkedHashMap<>(sources), "x86_64-linux-gnu")).isEqualTo(directory);
    }

    @Test
    void anotherSourceOrMachineIsAnotherHelper() {
        Path directory = HelperCache.directory(root, sources, "x86_64-linux-gnu");
        assertThat(HelperCache.directory(root, sources, "aarch64-linux-gnu")).isNotEqualTo(directory);
        assertThat(HelperCache.directory(root, sources("int main(void) { return run() + 1; }", "int run(void) { return 0; }"), "x86_64-linux-gnu"))
                .as("the first file changed").isNotEqualTo(directory);
        assertThat(HelperCache.directory(root, sources("int main(void) { return run(); }", "int run(void) { return 1; }"), "x86_64-linux-gnu"))
                .as("only the last file changed").isNotEqualTo(directory);
        Map<String, byte[]> header = new LinkedHashMap<>(sources);
        header.put("pg-helper.h", "int run(void); /* changed */".getBytes(StandardCharsets.UTF_8));
        assertThat(HelperCache.directory(root, header, "x86_64-linux-gnu")).as("only the header changed").isNotEqualTo(directory);
    }

    @Test
    void bytesMovedFromOneFileToTheNextAreAnotherHelper() {
        Path directory = HelperCache.directory(root, sources("int main(void) { return run(); }", "int run(void) { return 0; }"), "x86_64-linux-gnu");
        assertThat(HelperCache.directory(root, sources("int main(void) { return run(); }int run(void)", " { return 0; }"), "x86_64-linux-gnu"))
                .isNotEqualTo(directory);
    }

    @Test
    void everySourceBesideTheHelperIsShippedAndKeyed() throws IOException {
        for (String name : NativeHelper.SOURCES) {
            assertThat(NativeHelper.class.getResource(name)).as(name).isNotNull();
        }
        // A file left out of the list would be neither compiled nor hashed: a change to it would not rebuild.
        try (Stream<Path> files = Files.list(Path.of("src/main/resources/dev/patchgrade/core/launch"))) {
            assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".c") || n.endsWith(".h")))
                    .containsExactlyInAnyOrderElementsOf(NativeHelper.SOURCES);
        }
    }

    @Test
    void aHelperNeverBuiltIsNotBuiltYetRatherThanTampered() {
        Path missing = root.resolve("helper-none");
        assertThat(HelperCache.unfit(missing, missing.resolve(HelperCache.BINARY_NAME))).isEqualTo(HelperCache.NOT_BUILT);
    }
}
