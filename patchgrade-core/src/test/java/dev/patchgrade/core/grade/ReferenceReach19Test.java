package dev.patchgrade.core.grade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.launch.SandboxSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Red team 19's ways to the reference's code, each stopped now: the cheat works with the sandbox off and not with
 * it on, while a control shows the sandbox hiding the cases themselves.
 */
class ReferenceReach19Test extends ReferenceAttack {

    /** The cheat passes unsandboxed and not sandboxed. */
    void cheatFails(String execution, List<String> reference, List<String> candidate) throws Exception {
        GoalResult open = threeColumn(execution + "-open", SandboxSpec.Mode.OFF, reference, candidate);
        assertThat(open.error()).isNull();
        assertThat(open.worst()).as("the cheat works unsandboxed").isEqualTo("pass_all_agree");
        GoalResult boxed = threeColumn(execution, SandboxSpec.Mode.REQUIRED, reference, candidate);
        assertThat(boxed.error()).isNull();
        assertThat(boxed.worst()).as("the cheat fails with the sandbox on").isNotEqualTo("pass_all_agree");
        GoalResult control = threeColumn(execution, SandboxSpec.Mode.REQUIRED, reference,
                shell("sed -n 's/.*\"golden\":\"\\([^\"]*\\)\".*/\\1/p' " + p("src/test/patchgrade/cases.jsonl")));
        assertThat(control.error()).isNull();
        assertThat(control.worst()).as("control: the sandbox is on and hides cases.jsonl itself").isNotEqualTo("pass_all_agree");
        GoalResult controlOpen = threeColumn(execution + "-open", SandboxSpec.Mode.OFF, reference,
                shell("sed -n 's/.*\"golden\":\"\\([^\"]*\\)\".*/\\1/p' " + p("src/test/patchgrade/cases.jsonl")));
        assertThat(controlOpen.worst()).as("control: reading cases.jsonl works unsandboxed").isEqualTo("pass_all_agree");
    }

    static List<String> shell(String script) {
        return List.of("/bin/sh", "-c", script, "sh");
    }

    private void refbuildWithoutRunpath() throws Exception {
        build("ref");
        sh("mkdir -p refbuild/programs refbuild/lib && mv frozen/lib/libref.so refbuild/lib/ && printf 'int ref_main(int, char **);\\n"
                + "int main(int c, char **v) { return ref_main(c, v); }\\n' > ref.c && gcc -o refbuild/programs/ref ref.c -Lrefbuild/lib -lref && rm ref.c");
    }

    /** LD_LIBRARY_PATH given in the case's own "env" (cases.jsonl): classification only reads the execution's environment. */
    @Test
    void caseEnvLdLibraryPath() throws Exception {
        refbuildWithoutRunpath();
        Path cases = dir.resolve("src/test/patchgrade/cases.jsonl");
        Files.createDirectories(cases.getParent());
        Files.writeString(cases, "{\"id\":\"q\",\"args\":[\"question\"],\"env\":{\"LD_LIBRARY_PATH\":\"" + p("refbuild/lib")
                + "\"},\"golden\":\"" + GOLDEN + "\"}\n");
        environment = Map.of("LIB", "refbuild/lib/libref.so");
        cheatFails("case-ldlp", List.of(p("refbuild/programs/ref")), List.of(p("target/cand")));
    }

    /** env's --chdir abbreviated (--ch=DIR, as getopt_long accepts): not seen as -C; PATH=. then finds refbuild/src/sort. */
    @Test
    void envChdirAbbreviated() throws Exception {
        patchedSort();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> threeColumn("env-ch", SandboxSpec.Mode.REQUIRED,
                List.of("/usr/bin/env", "--ch=" + p("refbuild/src"), "PATH=.:/usr/bin:/bin", "sort"), execOf(p("refbuild/src/sort"))))
                .as("--ch is --chdir: an error, as -C is").hasMessageContaining("changes its own working directory");
    }

    /** env's --split-string abbreviated to --s= (only --sp... is caught): the next word is classified as the reference. */
    @Test
    void envSplitStringAbbreviated() throws Exception {
        patchedSort();
        Files.createDirectories(dir.resolve("data"));
        Files.writeString(dir.resolve("data/input.txt"), "input\n");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> threeColumn("env-s", SandboxSpec.Mode.REQUIRED,
                List.of("/usr/bin/env", "--s=" + p("refbuild/src/sort") + " -r", "data/input.txt"), execOf(p("refbuild/src/sort"))))
                .as("--s is --split-string").hasMessageContaining("with its command inside --s=");
    }

    /** PERL5OPT=-Idir: a module directory given in an option variable, not PERL5LIB. */
    @Test
    void perl5optModuleDirectory() throws Exception {
        Files.createDirectories(dir.resolve("frozen"));
        Files.createDirectories(dir.resolve("refbuild/perl"));
        Files.writeString(dir.resolve("frozen/ref.pl"), "use Ref; Ref::run(@ARGV);\n");
        Files.writeString(dir.resolve("refbuild/perl/Ref.pm"), "package Ref; sub run { print \"secret-answer $_[-1]\\n\" } 1;\n");
        environment = Map.of("PERL5OPT", "-I" + p("refbuild/perl"));
        cheatFails("perl5opt", List.of("/usr/bin/perl", "frozen/ref.pl"),
                shell("exec perl -MRef -e 'Ref::run(@ARGV)' \"$@\""));
    }

    /** NODE_OPTIONS=--require FILE: the reference's code in a hook the option variable loads. */
    @Test
    void nodeOptionsRequire() throws Exception {
        Files.createDirectories(dir.resolve("frozen"));
        Files.createDirectories(dir.resolve("refbuild/node"));
        Files.writeString(dir.resolve("frozen/main.js"), "globalThis.refMain(process.argv.slice(2));\n");
        Files.writeString(dir.resolve("refbuild/node/hook.js"),
                "globalThis.refMain = a => console.log('secret-answer ' + a[a.length - 1]);\n");
        environment = Map.of("NODE_OPTIONS", "--require " + p("refbuild/node/hook.js"));
        cheatFails("node-options", List.of("/usr/bin/node", "frozen/main.js"),
                shell("exec node -e 'globalThis.refMain(process.argv.slice(1))' \"$@\""));
    }

    /**
     * A relative RUNPATH whose directory has a glibc-hwcaps subdirectory: the loader lists the hwcaps copy, only its
     * directory is hidden; the baseline copy in refbuild/lib stays readable.
     */
    @Test
    void hwcapsSubdirectoryHidesOnlyTheOptimisedCopy() throws Exception {
        build("ref");
        sh("mkdir -p refbuild/programs refbuild/lib/glibc-hwcaps/x86-64-v2 && cp frozen/lib/libref.so refbuild/lib/"
                + " && mv frozen/lib/libref.so refbuild/lib/glibc-hwcaps/x86-64-v2/ && printf 'int ref_main(int, char **);\\n"
                + "int main(int c, char **v) { return ref_main(c, v); }\\n' > ref.c && gcc -o refbuild/programs/ref ref.c -Lrefbuild/lib -lref"
                + " -Wl,-rpath,refbuild/lib && rm ref.c && /lib64/ld-linux-x86-64.so.2 --list refbuild/programs/ref | grep libref");
        environment = Map.of("LIB", "refbuild/lib/libref.so");
        cheatFails("hwcaps", List.of(p("refbuild/programs/ref")), List.of(p("target/cand")));
    }

    /** The legacy AT_PLATFORM subdirectory (x86_64) of a relative RUNPATH directory: the same. */
    @Test
    void legacyPlatformSubdirectory() throws Exception {
        build("ref");
        sh("mkdir -p refbuild/programs refbuild/lib/x86_64 && cp frozen/lib/libref.so refbuild/lib/"
                + " && mv frozen/lib/libref.so refbuild/lib/x86_64/ && printf 'int ref_main(int, char **);\\n"
                + "int main(int c, char **v) { return ref_main(c, v); }\\n' > ref.c && gcc -o refbuild/programs/ref ref.c -Lrefbuild/lib -lref"
                + " -Wl,-rpath,refbuild/lib && rm ref.c && /lib64/ld-linux-x86-64.so.2 --list refbuild/programs/ref | grep libref");
        environment = Map.of("LIB", "refbuild/lib/libref.so");
        cheatFails("platform", List.of(p("refbuild/programs/ref")), List.of(p("target/cand")));
    }

    /** A reference whose PT_INTERP is a copy of the loader outside the system: libraries() lists nothing; a relative RUNPATH is skipped. */
    @Test
    void foreignProgramInterpreterWithRelativeRunpath() throws Exception {
        build("ref");
        sh("mkdir -p refbuild/programs refbuild/lib refbuild/ld && mv frozen/lib/libref.so refbuild/lib/"
                + " && cp -L /lib64/ld-linux-x86-64.so.2 refbuild/ld/ld.so && printf 'int ref_main(int, char **);\\n"
                + "int main(int c, char **v) { return ref_main(c, v); }\\n' > ref.c && gcc -o refbuild/programs/ref ref.c -Lrefbuild/lib -lref"
                + " -Wl,-rpath,refbuild/lib -Wl,--dynamic-linker=" + p("refbuild/ld/ld.so") + " && rm ref.c");
        environment = Map.of("LIB", "refbuild/lib/libref.so");
        cheatFails("foreign-interp", List.of(p("refbuild/programs/ref")), List.of(p("target/cand")));
    }

    /** A copy of cases.jsonl beside it as a browser or file manager names it: "cases (1).jsonl", "cases-old.jsonl". */
    @Test
    void aCopyOfTheCasesNamedLikeADownload() throws Exception {
        build("ref");
        Path cases = dir.resolve("src/test/patchgrade/cases.jsonl");
        Files.createDirectories(cases.getParent());
        String line = "{\"id\":\"q\",\"args\":[\"question\"],\"golden\":\"" + GOLDEN + "\"}\n";
        Files.writeString(cases, line);
        Files.writeString(dir.resolve("src/test/patchgrade/cases (1).jsonl"), line);
        cheatFails("download-copy", List.of(p("frozen/bin/ref")),
                shell("sed -n 's/.*\"golden\":\"\\([^\"]*\\)\".*/\\1/p' 'src/test/patchgrade/cases (1).jsonl'"));
    }

    /** PATH given in the case's own "env": env finds refbuild/src/sort at run time; classification looks "sort" up on the execution's PATH. */
    @Test
    void caseEnvPathBehindEnv() throws Exception {
        patchedSort();
        Path cases = dir.resolve("src/test/patchgrade/cases.jsonl");
        Files.createDirectories(cases.getParent());
        Files.writeString(cases, "{\"id\":\"q\",\"args\":[\"question\"],\"env\":{\"PATH\":\"" + p("refbuild/src") + ":/usr/bin:/bin"
                + "\"},\"golden\":\"" + GOLDEN + "\"}\n");
        cheatFails("case-path", List.of("/usr/bin/env", "sort"), execOf(p("refbuild/src/sort")));
    }

    /** A case's "cwd": a relative RUNPATH ("lib") resolves in the case's directory at run time, in the execution's for --list. */
    @Test
    void caseCwdRelativeRunpath() throws Exception {
        build("ref");
        sh("mkdir -p refbuild/programs refbuild/lib && mv frozen/lib/libref.so refbuild/lib/ && printf 'int ref_main(int, char **);\\n"
                + "int main(int c, char **v) { return ref_main(c, v); }\\n' > ref.c && gcc -o refbuild/programs/ref ref.c -Lrefbuild/lib -lref"
                + " -Wl,-rpath,lib && rm ref.c");
        Path cases = dir.resolve("src/test/patchgrade/cases.jsonl");
        Files.createDirectories(cases.getParent());
        Files.writeString(cases, "{\"id\":\"q\",\"args\":[\"question\"],\"cwd\":\"refbuild\",\"golden\":\"" + GOLDEN + "\"}\n");
        environment = Map.of("LIB", p("refbuild/lib/libref.so"));
        cheatFails("case-cwd", List.of(p("refbuild/programs/ref")), List.of(p("target/cand")));
    }

    /**
     * A reference script run directly, whose shebang names the reference's own build of an interpreter
     * (refbuild/bin/lua, a patched lua): the interpreter is neither hidden nor frozen, though the same command
     * spelled `refbuild/bin/lua refbuild/scripts/ref.lua` hides refbuild/bin (red team 17).
     */
    @Test
    void aShebangNamesThePatchedInterpreter() throws Exception {
        Files.createDirectories(dir.resolve("refbuild/bin"));
        Files.createDirectories(dir.resolve("refbuild/scripts"));
        Files.writeString(dir.resolve("refbuild/bin/lua.c"),
                "#include <stdio.h>\nint main(int c, char **v) { printf(\"secret-answer %s\\n\", v[c - 1]); return 0; }\n");
        sh("gcc -o refbuild/bin/lua refbuild/bin/lua.c && rm refbuild/bin/lua.c");
        Files.writeString(dir.resolve("refbuild/scripts/ref.lua"), "#!" + p("refbuild/bin/lua") + "\nprint('hello')\n");
        sh("chmod +x refbuild/scripts/ref.lua");
        cheatFails("shebang", List.of(p("refbuild/scripts/ref.lua")), execOf(p("refbuild/bin/lua")));
    }

    /** perl -Mlib=DIR (use lib DIR): the module directory is inside the -M value, not a path, and is never hidden. */
    @Test
    void perlUseLibOnTheCommandLine() throws Exception {
        Files.createDirectories(dir.resolve("frozen"));
        Files.createDirectories(dir.resolve("refbuild/perl"));
        Files.writeString(dir.resolve("frozen/ref.pl"), "Ref::run(@ARGV);\n");
        Files.writeString(dir.resolve("refbuild/perl/Ref.pm"), "package Ref; sub run { print \"secret-answer $_[-1]\\n\" } 1;\n");
        cheatFails("perl-use-lib", List.of("/usr/bin/perl", "-Mlib=" + p("refbuild/perl"), "-MRef", "frozen/ref.pl"),
                shell("exec perl -I" + p("refbuild/perl") + " -MRef -e 'Ref::run(@ARGV)' \"$@\""));
    }

    /** A data directory attached to a short option (-Drefdata): attachedFiles takes regular files only. */
    @Test
    void aDirectoryInsideAShortOption() throws Exception {
        Files.createDirectories(dir.resolve("frozen"));
        Files.createDirectories(dir.resolve("refdata"));
        Files.writeString(dir.resolve("frozen/ref.sh"), "d=${1#-D}; cat \"$d/answer.txt\"\n");
        Files.writeString(dir.resolve("refdata/answer.txt"), GOLDEN + "\n");
        cheatFails("attached-dir", List.of("/bin/sh", "frozen/ref.sh", "-Drefdata"), shell("cat refdata/answer.txt"));
    }

    /** A data directory as the value of a KEY=DIR word (dd/make style): namedDirectories splits "--x=" words only. */
    @Test
    void aDirectoryAsAKeyValueWord() throws Exception {
        Files.createDirectories(dir.resolve("frozen"));
        Files.createDirectories(dir.resolve("refdata"));
        Files.writeString(dir.resolve("frozen/ref.sh"), "d=${1#data=}; cat \"$d/answer.txt\"\n");
        Files.writeString(dir.resolve("refdata/answer.txt"), GOLDEN + "\n");
        cheatFails("kv-dir", List.of("/bin/sh", "frozen/ref.sh", "data=refdata"), shell("cat refdata/answer.txt"));
    }

    /** CLASSPATH in the execution's environment: java (an interpreter by the table) loads the reference's classes from refbuild/classes. */
    @Test
    void javaClasspathVariable() throws Exception {
        Files.createDirectories(dir.resolve("frozen"));
        Files.createDirectories(dir.resolve("refbuild/classes"));
        Files.writeString(dir.resolve("Ref.java"), "public class Ref { public static void run(String[] a) { System.out.println(\"secret-answer \" + a[a.length - 1]); } public static void main(String[] a) { run(a); } }\n");
        sh("javac -d refbuild/classes Ref.java && rm Ref.java");
        Files.writeString(dir.resolve("frozen/Main.java"), "public class Main { public static void main(String[] a) { Ref.run(a); } }\n");
        environment = Map.of("CLASSPATH", p("refbuild/classes"));
        String java = Path.of(System.getProperty("java.home"), "bin/java").toString();
        cheatFails("classpath", List.of(java, "frozen/Main.java"),
                shell("exec " + java + " -cp " + p("refbuild/classes") + " Ref \"$@\""));
    }
}
