package dev.patchgrade.core.classify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ElfSearchPathTest {
    @TempDir
    Path dir;

    private Path compile(String name, String... linkerOptions) throws Exception {
        Path source = Files.writeString(dir.resolve("main.c"), "int main(void) { return 0; }\n");
        Path binary = dir.resolve(name);
        java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of("gcc", "-o", binary.toString(), source.toString()));
        command.addAll(java.util.List.of(linkerOptions));
        Process gcc = new ProcessBuilder(command).inheritIO().start();
        assertThat(gcc.waitFor()).isZero();
        return binary;
    }

    @Test
    void readsTheRunpathOrElseTheRpathAsWritten() throws Exception {
        assertThat(ElfSearchPath.of(compile("runpath", "-Wl,-rpath,/abs/refbuild/lib:$ORIGIN/../lib")))
                .containsExactly("/abs/refbuild/lib", "$ORIGIN/../lib");
        assertThat(ElfSearchPath.of(compile("rpath", "-Wl,--disable-new-dtags,-rpath,/x/lib"))).containsExactly("/x/lib");
        assertThat(ElfSearchPath.of(compile("none"))).isEmpty();
    }

    @Test
    void aFileThatIsNoElfNamesNone() throws Exception {
        assertThat(ElfSearchPath.of(Files.writeString(dir.resolve("script.sh"), "#!/bin/sh\necho hi\n"))).isEmpty();
        assertThat(ElfSearchPath.of(Files.write(dir.resolve("short"), new byte[] {0x7f, 'E', 'L', 'F'}))).isEmpty();
        assertThat(ElfSearchPath.of(dir.resolve("absent"))).isEmpty();
    }
}
