package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.host.BoundedCommand;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The helper's sources compile without a single warning under the flags users build it with, made errors: the
 * run-time build keeps warnings as warnings (a user's newer compiler must not break the plugin), so this is where
 * a new one fails the project's build.
 */
class HelperWarningsTest {
    @TempDir
    Path dir;

    @Test
    void theHelperCompilesWithWarningsAsErrors() throws IOException {
        String compiler = HelperBuild.findCompiler();
        assertThat(compiler).as("a C compiler (set CC, or install cc/gcc/clang)").isNotNull();
        List<Path> files = new ArrayList<>();
        for (String name : NativeHelper.SOURCES) {
            try (InputStream in = NativeHelper.class.getResourceAsStream(name)) {
                assertThat(in).as(name).isNotNull();
                files.add(Files.write(dir.resolve(name), in.readAllBytes()));
            }
        }
        List<String> command = new ArrayList<>(List.of(compiler));
        command.addAll(HelperBuild.FLAGS);
        command.addAll(List.of("-Werror", "-c"));
        command.addAll(HelperBuild.units(files));
        String failure = null;
        try {
            BoundedCommand.output(command, dir, NativeHelper.COMPILE_TIMEOUT);
        } catch (IOException e) {
            failure = e.getMessage();
        }
        assertThat(failure).as("the compiler's first warning, made an error, names the file and line to fix").isNull();
        for (Path file : files) {
            String name = file.getFileName().toString();
            if (name.endsWith(".c")) {
                assertThat(dir.resolve(name.replace(".c", ".o"))).as("compiled " + name).isRegularFile();
            }
        }
    }
}
