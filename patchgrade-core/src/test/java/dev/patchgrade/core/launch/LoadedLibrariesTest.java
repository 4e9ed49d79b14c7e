package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The loader's listing read line by line, and a real listing of a dynamically linked program. */
class LoadedLibrariesTest {
    @Test
    void eachFormOfTheLoadersLineNamesItsLibrary() {
        Path wd = Path.of("/work/p");
        assertThat(LoadedLibraries.listed("\tlibref.so => /abs/lib/libref.so (0x00007f)", wd)).isEqualTo(Path.of("/abs/lib/libref.so"));
        assertThat(LoadedLibraries.listed("\t/lib64/ld-linux-x86-64.so.2 (0x00007f)", wd)).isEqualTo(Path.of("/lib64/ld-linux-x86-64.so.2"));
        assertThat(LoadedLibraries.listed("\tlibrel.so => build/lib/librel.so (0x1)", wd)).isEqualTo(Path.of("/work/p/build/lib/librel.so"));
        assertThat(LoadedLibraries.listed("\tlinux-vdso.so.1 (0x00007ffd)", wd)).isNull();
        assertThat(LoadedLibraries.listed("\tlibgone.so => not found", wd)).isNull();
    }

    @Test
    void aDynamicProgramListsItsCLibraryAndAScriptListsNothing() {
        assertThat(LoadedLibraries.of(Path.of("/bin/ls"), null, Map.of())).anyMatch(library -> library.getFileName().toString().startsWith("libc."));
        assertThat(LoadedLibraries.of(Path.of("/usr/bin/ldd"), null, Map.of())).as("a shell script").isEmpty();
    }

    /** A library that is a FIFO blocks the loader's open for ever: the listing has a deadline, and the grade goes on. */
    @Test
    void aLibraryThatIsAFifoCannotHangTheListing(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        java.nio.file.Files.writeString(dir.resolve("l.c"), "int h(void) { return 0; }\n");
        java.nio.file.Files.writeString(dir.resolve("m.c"), "int h(void);\nint main(void) { return h(); }\n");
        java.nio.file.Files.createDirectories(dir.resolve("lib"));
        Process build = new ProcessBuilder("/bin/sh", "-c", "gcc -shared -fPIC -o lib/libh.so l.c && gcc -o m m.c -Llib -lh -Wl,-rpath,'$ORIGIN/lib'"
                + " && rm lib/libh.so && mkfifo lib/libh.so").directory(dir.toFile()).inheritIO().start();
        assertThat(build.waitFor()).isZero();
        java.util.List<Path> libraries = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(60),
                () -> LoadedLibraries.of(dir.resolve("m"), dir, Map.of()));
        assertThat(libraries).noneMatch(library -> library.getFileName().toString().equals("libh.so"));
    }
}
