package dev.patchgrade.core.grade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.launch.SandboxSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Red team 18's ways to the reference's code, each stopped now: every cheat is shown to work with the sandbox off,
 * then to fail with it on (and, where useful, a control shows the reference binary itself hidden).
 */
class ReferenceReach18Test extends ReferenceAttack {
    // ---- (1) wrapper table ----

    /** setarch takes its arch as optional (util-linux >= 2.33): the table always skips one positional, so the reference is skipped. */
    @Test
    void setarchWithoutArchSkipsTheReference() throws Exception {
        build("ref");
        cheatWorks("setarch", List.of("/usr/bin/setarch", "-R", p("frozen/bin/ref"), "data/input.txt"),
                List.of(p("target/cand"), "data/input.txt"), p("frozen/bin/ref"));
    }

    /** linux64 / x86_64 / i386 are links to setarch: named after the arch, they take no arch word, but the real name's syntax skips one. */
    @Test
    void linux64AliasSkipsTheReference() throws Exception {
        build("ref");
        cheatWorks("linux64", List.of("/usr/bin/linux64", p("frozen/bin/ref"), "data/input.txt"),
                List.of(p("target/cand"), "data/input.txt"), p("frozen/bin/ref"));
    }

    /** A wrapper the table does not know (setpriv, flock, strace, unshare, chroot, xargs...) is taken for the reference itself. */
    @Test
    void anUnlistedWrapperIsTakenForTheReference() throws Exception {
        build("ref");
        cheatWorks("setpriv", List.of("/usr/bin/setpriv", "--no-new-privs", p("frozen/bin/ref")),
                List.of(p("target/cand")), p("frozen/bin/ref"));
    }

    @Test
    void flockIsTakenForTheReference() throws Exception {
        build("ref");
        cheatWorks("flock", List.of("/usr/bin/flock", "/dev/null", p("frozen/bin/ref")),
                List.of(p("target/cand")), p("frozen/bin/ref"));
    }

    /**
     * env PATH=... sets the PATH the wrapped bare name is found on at run time; classification looks the name up on
     * the execution's PATH instead. A reference named like a system program (grading a patch to coreutils' sort)
     * classifies as /usr/bin/sort: the real reference refbuild/src/sort is neither hidden nor frozen.
     */
    @Test
    void envPathAssignmentRunsAProgramClassificationNeverSaw() throws Exception {
        Files.createDirectories(dir.resolve("refbuild/src"));
        Files.writeString(dir.resolve("refbuild/src/sort.c"),
                "#include <stdio.h>\nint main(int c, char **v) { printf(\"secret-answer %s\\n\", v[c - 1]); return 0; }\n");
        sh("gcc -o refbuild/src/sort refbuild/src/sort.c && rm refbuild/src/sort.c");
        List<String> reference = List.of("/usr/bin/env", "PATH=" + p("refbuild/src") + ":/usr/bin:/bin", "sort");
        cheatWorks("envpath", reference, execOf(p("refbuild/src/sort")), null);
    }

    // ---- (2) search path ----

    /** LD_LIBRARY_PATH in the execution's environment: the reference's library directory is not hidden. */
    @Test
    void ldLibraryPathInTheEnvironment() throws Exception {
        build("ref");
        sh("mkdir -p refbuild/programs refbuild/lib && mv frozen/lib/libref.so refbuild/lib/ && printf 'int ref_main(int, char **);\\n"
                + "int main(int c, char **v) { return ref_main(c, v); }\\n' > ref.c && gcc -o refbuild/programs/ref ref.c -Lrefbuild/lib -lref && rm ref.c");
        environment = Map.of("LD_LIBRARY_PATH", p("refbuild/lib"), "LIB", "refbuild/lib/libref.so");
        cheatWorks("ldlp", List.of(p("refbuild/programs/ref")), List.of(p("target/cand")), p("refbuild/programs/ref"));
    }

    /** ld.so --library-path DIR: DIR is skipped as an option value and never hidden. */
    @Test
    void loaderLibraryPath() throws Exception {
        build("ref");
        sh("mkdir -p refbuild/programs refbuild/lib && mv frozen/lib/libref.so refbuild/lib/ && printf 'int ref_main(int, char **);\\n"
                + "int main(int c, char **v) { return ref_main(c, v); }\\n' > ref.c && gcc -o refbuild/programs/ref ref.c -Lrefbuild/lib -lref && rm ref.c");
        environment = Map.of("LIB", "refbuild/lib/libref.so");
        cheatWorks("ldso-lp", List.of("/lib64/ld-linux-x86-64.so.2", "--library-path", p("refbuild/lib"), p("refbuild/programs/ref")),
                List.of(p("target/cand")), p("refbuild/programs/ref"));
    }

    /** A library with no SONAME linked by full path: DT_NEEDED is the absolute path, with no RUNPATH at all. */
    @Test
    void absoluteNeededLibrary() throws Exception {
        build("ref");
        sh("mkdir -p refbuild/programs refbuild/lib && printf '#include <stdio.h>\\nint ref_main(int c, char **v) { printf(\"secret-answer %%s\\\\n\", v[c-1]); return 0; }\\n' > lib.c"
                + " && gcc -shared -fPIC -o refbuild/lib/libref.so lib.c && printf 'int ref_main(int, char **);\\n"
                + "int main(int c, char **v) { return ref_main(c, v); }\\n' > ref.c && gcc -o refbuild/programs/ref ref.c " + p("refbuild/lib/libref.so")
                + " && rm ref.c lib.c && readelf -d refbuild/programs/ref | grep NEEDED");
        environment = Map.of("LIB", "refbuild/lib/libref.so");
        cheatWorks("abs-needed", List.of(p("refbuild/programs/ref")), List.of(p("target/cand")), p("refbuild/programs/ref"));
    }

    /** A relative RUNPATH (resolved by the loader against the working directory) is skipped by ElfSearchPath's caller. */
    @Test
    void relativeRunpath() throws Exception {
        build("ref");
        sh("mkdir -p refbuild/programs refbuild/lib && mv frozen/lib/libref.so refbuild/lib/ && printf 'int ref_main(int, char **);\\n"
                + "int main(int c, char **v) { return ref_main(c, v); }\\n' > ref.c && gcc -o refbuild/programs/ref ref.c -Lrefbuild/lib -lref"
                + " -Wl,-rpath,refbuild/lib && rm ref.c && readelf -d refbuild/programs/ref | grep -i path");
        environment = Map.of("LIB", "refbuild/lib/libref.so");
        cheatWorks("rel-runpath", List.of(p("refbuild/programs/ref")), List.of(p("target/cand")), p("refbuild/programs/ref"));
    }

    
    // ---- (2) transitive libraries ----

    /**
     * The reference's RUNPATH is $ORIGIN (its own directory, hidden); its library there loads libcore.so through the
     * library's OWN RUNPATH into refbuild/core: nothing reads the libraries' dynamic sections.
     */
    @Test
    void aLibrarysOwnRunpathIsNeverRead() throws Exception {
        build("ref");
        sh("mkdir -p refbuild/programs refbuild/core"
                + " && printf '#include <stdio.h>\\nint ref_main(int c, char **v) { printf(\"secret-answer %%s\\\\n\", v[c-1]); return 0; }\\n' > core.c"
                + " && gcc -shared -fPIC -o refbuild/core/libcore.so core.c"
                + " && printf 'int ref_main(int, char **);\\nint shim(int c, char **v) { return ref_main(c, v); }\\n' > shim.c"
                + " && gcc -shared -fPIC -o refbuild/programs/libshim.so shim.c -Lrefbuild/core -lcore -Wl,-rpath," + p("refbuild/core")
                + " && printf 'int shim(int, char **);\\nint main(int c, char **v) { return shim(c, v); }\\n' > ref.c"
                + " && gcc -o refbuild/programs/ref ref.c -Lrefbuild/programs -lshim -Wl,-rpath,'$ORIGIN' -Wl,--allow-shlib-undefined"
                + " && rm core.c shim.c ref.c && readelf -d refbuild/programs/ref | grep -i path");
        environment = Map.of("LIB", "refbuild/core/libcore.so");
        cheatWorks("transitive", List.of(p("refbuild/programs/ref")), List.of(p("target/cand")), p("refbuild/programs/ref"));
    }

    // ---- (1) PATH entries resolved against the JVM's directory, or skipped, where the wrapper resolves them in the working directory ----

    /** A relative PATH entry: classification resolves it from the JVM's cwd (Maven's), timeout's execvp from the working directory. */
    @Test
    void aRelativePathEntryBehindAWrapper() throws Exception {
        patchedSort();
        environment = Map.of("PATH", "refbuild/src:/usr/bin:/bin");
        cheatWorks("relpath", List.of("/usr/bin/timeout", "10", "sort"), execOf(p("refbuild/src/sort")), null);
    }

    /** An empty PATH entry (the working directory to execvp) is skipped by classification. */
    @Test
    void anEmptyPathEntryBehindAWrapper() throws Exception {
        patchedSort();
        sh("cp refbuild/src/sort ./sort");
        environment = Map.of("PATH", ":/usr/bin:/bin");
        cheatWorks("emptypath", List.of("/usr/bin/timeout", "10", "sort"), execOf(p("sort")), null);
    }

    /**
     * The build tree reached through a symbolic link (build -> realbuild, as when a build directory is linked to a
     * scratch disk): the RUNPATH names build/lib, the executable's real directory is realbuild/programs; the tree they
     * share is computed on the spelled RUNPATH (no realpath), so it is the project and skipped.
     */
    @Test
    void aRunpathThroughASymlinkedBuildDirectory() throws Exception {
        build("ref");
        sh("mkdir -p realbuild/programs realbuild/lib && ln -s realbuild build && mv frozen/lib/libref.so realbuild/lib/"
                + " && printf 'int ref_main(int, char **);\\nint main(int c, char **v) { return ref_main(c, v); }\\n' > ref.c"
                + " && gcc -o realbuild/programs/ref ref.c -Lrealbuild/lib -lref -Wl,-rpath," + p("build/lib") + " && rm ref.c");
        environment = Map.of("LIB", "build/lib/libref.so");
        cheatWorks("symlinked-tree", List.of(p("build/programs/ref")), List.of(p("target/cand")), p("realbuild/programs/ref"));
    }

    /** F5(c): env's own LD_LIBRARY_PATH assignment, nested behind timeout. */
    @Test
    void envLdLibraryPathAssignmentBehindTimeout() throws Exception {
        build("ref");
        sh("mkdir -p refbuild/programs refbuild/lib && mv frozen/lib/libref.so refbuild/lib/ && printf 'int ref_main(int, char **);\\n"
                + "int main(int c, char **v) { return ref_main(c, v); }\\n' > ref.c && gcc -o refbuild/programs/ref ref.c -Lrefbuild/lib -lref && rm ref.c");
        environment = Map.of("LIB", "refbuild/lib/libref.so");
        cheatWorks("env-ldlp", List.of("/usr/bin/timeout", "10", "/usr/bin/env", "LD_LIBRARY_PATH=" + p("refbuild/lib"), p("refbuild/programs/ref")),
                List.of(p("target/cand")), p("refbuild/programs/ref"));
    }

    /** F1 nested: timeout 10 env PATH=... sort. */
    @Test
    void envPathAssignmentNestedBehindTimeout() throws Exception {
        patchedSort();
        cheatWorks("env-path-nested", List.of("/usr/bin/timeout", "10", "/usr/bin/env", "PATH=" + p("refbuild/src") + ":/usr/bin:/bin", "sort"),
                execOf(p("refbuild/src/sort")), null);
    }

    /** The reference reads its table from the path given by its argument v[1] (prints "<table> <last arg>"). */
    private void tableReader() throws Exception {
        sh("mkdir -p refdata frozen/prog && printf 'secret-answer\\n' > refdata/answers.txt"
                + " && printf '#include <stdio.h>\\n#include <string.h>\\n"
                + "int main(int c, char **v) { const char *f = v[1]; if (f[0] == 0x2d) f += 2; if (f[0] == 0x3d) f++;"
                + " char path[4096]; snprintf(path, sizeof path, strstr(f, \".txt\") ? \"%%s\" : \"%%s/answers.txt\", f);"
                + " FILE *in = fopen(path, \"r\"); char a[64] = {0};"
                + " if (!in || !fgets(a, 64, in)) return 4; a[strcspn(a, \"\\\\n\")] = 0; printf(\"%%s %%s\\\\n\", a, v[c-1]); return 0; }\\n' > ref.c"
                + " && gcc -o frozen/prog/ref ref.c && rm ref.c");
    }

    /** A data DIRECTORY the command names (`--tables refdata`): namedFiles keeps regular files only. */
    @Test
    void aDataDirectoryTheCommandNames() throws Exception {
        tableReader();
        cheatWorks("data-dir", List.of(p("frozen/prog/ref"), "refdata"),
                List.of("/bin/sh", "-c", "printf '%s %s\\n' \"$(cat refdata/answers.txt)\" \"$1\"", "sh"), p("frozen/prog/ref"));
    }

    /** The other side: a candidate given the same data directory (an input both read) still reads it, sandboxed. */
    @Test
    void aDataDirectoryTheCandidateIsGivenTooStaysVisibleToIt() throws Exception {
        tableReader();
        GoalResult honest = threeColumn("data-dir-shared", SandboxSpec.Mode.REQUIRED, List.of(p("frozen/prog/ref"), "refdata"),
                List.of("/bin/sh", "-c", "printf '%s %s\\n' \"$(cat \"$1\"/answers.txt)\" \"$2\"", "sh", "refdata"));
        assertThat(honest.error()).isNull();
        assertThat(honest.worst()).as("the honest candidate reads its input").isEqualTo("pass_all_agree");
    }

    /** A short option with its file attached (`-Trefdata/answers.txt`, getopt style): not recognized as a named file. */
    @Test
    void anAttachedShortOptionFile() throws Exception {
        tableReader();
        cheatWorks("attached", List.of(p("frozen/prog/ref"), "-Trefdata/answers.txt"),
                List.of("/bin/sh", "-c", "printf '%s %s\\n' \"$(cat refdata/answers.txt)\" \"$1\"", "sh"), p("frozen/prog/ref"));
    }

    /** Control: the same file as a word of its own is named, frozen and hidden. */
    @Test
    void controlTheSameFileAsAWordIsHidden() throws Exception {
        tableReader();
        GoalResult boxed = threeColumn("word", SandboxSpec.Mode.REQUIRED, List.of(p("frozen/prog/ref"), "refdata/answers.txt"),
                List.of("/bin/sh", "-c", "printf '%s %s\\n' \"$(cat refdata/answers.txt)\" \"$1\"", "sh"));
        assertThat(boxed.error()).isNull();
        assertThat(boxed.worst()).isNotEqualTo("pass_all_agree");
    }

    /**
     * The hidden prefix holds a symbolic link leading out of it (frozen/lib/libref.so -> ../../refbuild/lib/libref.so,
     * as a "frozen" tree made of links to the build's output): the mount hides the link, not what it leads to.
     */
    @Test
    void aLinkInsideTheHiddenPrefixLeadsOut() throws Exception {
        build("ref");
        sh("mkdir -p refbuild/lib && mv frozen/lib/libref.so refbuild/lib/ && ln -s ../../refbuild/lib/libref.so frozen/lib/libref.so");
        environment = Map.of("LIB", "refbuild/lib/libref.so");
        cheatWorks("link-out", List.of(p("frozen/bin/ref")), List.of(p("target/cand")), p("frozen/bin/ref"));
        // The link itself (the path the reference uses) is hidden:
        environment = Map.of("LIB", "frozen/lib/libref.so");
        GoalResult viaLink = threeColumn("link-out", SandboxSpec.Mode.REQUIRED, List.of(p("frozen/bin/ref")), List.of(p("target/cand")));
        assertThat(viaLink.worst()).as("control: the prefix's own path is hidden").isNotEqualTo("pass_all_agree");
    }

    /** PYTHONPATH in <environment>: the module the reference's script imports lies outside the script's directory. */
    @Test
    void pythonpathInTheEnvironment() throws Exception {
        Files.createDirectories(dir.resolve("frozen"));
        Files.createDirectories(dir.resolve("reflib"));
        Files.writeString(dir.resolve("frozen/ref.py"), "import sys, refcore\nprint(refcore.answer(sys.argv[-1]))\n");
        Files.writeString(dir.resolve("reflib/refcore.py"), "def answer(q):\n    return 'secret-answer ' + q\n");
        environment = Map.of("PYTHONPATH", p("reflib"));
        cheatWorks("pythonpath", List.of("/usr/bin/python3", "frozen/ref.py"),
                List.of("/usr/bin/python3", "-c", "import sys, refcore; print(refcore.answer(sys.argv[-1]))"),
                "/usr/bin/python3 " + p("frozen/ref.py"));
    }

    /**
     * env's -S clustered with another flag and its value attached (`-iS<prog>`): the refusal checks only words that
     * START with -S; the word is skipped as a flag, the next word (data) is taken for the program, and the program in
     * the -S word is named by no word: the reference binary itself is neither hidden nor frozen.
     */
    @Test
    void envClusteredSplitStringRunsAnUnnamedReference() throws Exception {
        build("ref");
        String ref = p("frozen/bin/ref");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> threeColumn("env-iS", SandboxSpec.Mode.REQUIRED,
                List.of("/usr/bin/env", "-iS" + ref, "data/input.txt"), List.of("/bin/sh", "-c", "exec " + ref + " \"$@\"", "sh")))
                .hasMessageContaining("with its command inside -iS");
    }

    /**
     * An interpreter option whose value is a file as a separate word (`node --env-file ci/node.env frozen/ref.js`,
     * also `php -c php.ini`): the value is taken for the script. ref.js itself is named and hidden, but its
     * directory (the module it requires) is not.
     */
    @Test
    void nodeEnvFileIsTakenForTheScript() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/node")));
        Files.createDirectories(dir.resolve("frozen"));
        Files.createDirectories(dir.resolve("ci"));
        Files.writeString(dir.resolve("ci/node.env"), "NODE_NO_WARNINGS=1\n");
        Files.writeString(dir.resolve("frozen/ref.js"), "const c = require('./refcore.js'); console.log(c.a(process.argv.at(-1)));\n");
        Files.writeString(dir.resolve("frozen/refcore.js"), "exports.a = q => 'secret-answer ' + q;\n");
        cheatWorks("node-env-file", List.of("/usr/bin/node", "--env-file", "ci/node.env", "frozen/ref.js"),
                List.of("/usr/bin/node", "-e", "console.log(require('" + p("frozen/refcore.js") + "').a(process.argv.at(-1)))"),
                "/usr/bin/node " + p("frozen/ref.js"));
    }
}
