package dev.patchgrade.core.grade;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a command names: the paths the sandbox shows its runs. */
class RunInputsTest {
    @TempDir
    Path dir;

    @Test
    void existingPathsNamedAsWordsOrValuesAreFoundFromTheDirectory() throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        Path input = Files.writeString(data.resolve("in.txt"), "x");
        assertThat(RunInputs.named(List.of("prog", "data/in.txt", "--dict=data", "missing.txt", "-v", "3"), dir))
                .containsExactly(input, data);
        assertThat(RunInputs.named(List.of(input.toString()), null)).containsExactly(input);
        assertThat(RunInputs.named(List.of("data/in.txt"), null)).as("a relative word without a directory names nothing").isEmpty();
    }

    @Test
    void aWordNoFileCanHaveNamesNothing() {
        assertThat(RunInputs.named(List.of("a\0b", "", "x=\0"), dir)).isEmpty();
        assertThat(RunInputs.named(java.util.Arrays.asList((String) null), dir)).isEmpty();
    }

    @Test
    void searchPathsAreTheAbsoluteDirectoriesOfPathAndLdLibraryPath() throws Exception {
        Path tools = Files.createDirectories(dir.resolve("toolchain/bin"));
        Path libs = Files.createDirectories(dir.resolve("toolchain/lib"));
        assertThat(RunInputs.searchPaths(Map.of("PATH", tools + ":relative:/nonexistent-dir:" , "LD_LIBRARY_PATH", libs.toString(),
                "PYTHONPATH", dir.toString()))).containsExactly(tools, libs);
    }
}
