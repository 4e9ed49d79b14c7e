package dev.patchgrade.core.grade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.classify.Comparison;
import dev.patchgrade.core.classify.ReferenceFiles;
import dev.patchgrade.core.classify.ThreeColumnGoal;
import dev.patchgrade.core.digest.DigestGoal;
import dev.patchgrade.core.digest.DigestOptions;
import dev.patchgrade.core.digest.TimeBuckets;
import dev.patchgrade.core.launch.SandboxSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Red teams 16 and 17: candidates that reached the reference's code by routes the sandbox left open; each is stopped now. */
class ReferenceReachTest extends ReferenceAttack {
    /**
     * A reference installed the usual way: prefix/bin/ref with its code in prefix/lib/libref.so, found through an
     * $ORIGIN/../lib rpath (CMake's install layout). Only prefix/bin is hidden: the candidate dlopens the library.
     */
    @Test
    void aCandidateDlopensTheReferencesLibraryFromItsInstallPrefix() throws Exception {
        Files.createDirectories(dir.resolve("frozen/bin"));
        Files.createDirectories(dir.resolve("frozen/lib"));
        Files.createDirectories(dir.resolve("target"));
        Files.writeString(dir.resolve("frozen/lib/libref.c"),
                "#include <stdio.h>\nint ref_main(int c, char **v) { printf(\"secret-answer %s\\n\", c > 1 ? v[1] : \"\"); return 0; }\n");
        Files.writeString(dir.resolve("frozen/bin/ref.c"), "int ref_main(int, char **);\nint main(int c, char **v) { return ref_main(c, v); }\n");
        Files.writeString(dir.resolve("target/cand.c"), "#include <dlfcn.h>\n#include <stdio.h>\n"
                + "int main(int c, char **v) { void *h = dlopen(\"frozen/lib/libref.so\", RTLD_NOW); if (!h) { puts(dlerror()); return 3; }\n"
                + "  int (*m)(int, char **) = (int (*)(int, char **)) dlsym(h, \"ref_main\"); return m(c, v); }\n");
        sh("gcc -shared -fPIC -o frozen/lib/libref.so frozen/lib/libref.c && rm frozen/lib/libref.c"
                + " && gcc -o frozen/bin/ref frozen/bin/ref.c -Lfrozen/lib -lref -Wl,-rpath,'$ORIGIN/../lib' && rm frozen/bin/ref.c"
                + " && gcc -o target/cand target/cand.c -ldl");
        List<String> reference = List.of(dir.resolve("frozen/bin/ref").toString());
        List<String> candidate = List.of(dir.resolve("target/cand").toString());
        GoalResult boxed = threeColumn("prefix", SandboxSpec.Mode.REQUIRED, reference, candidate);
        assertThat(boxed.error()).isNull();
        assertThat(boxed.worst()).as("the reference's prefix is hidden: no library to dlopen").isNotEqualTo("pass_all_agree");
        assertThat(threeColumn("prefix-open", SandboxSpec.Mode.OFF, reference, candidate).worst()).as("the cheat itself works unsandboxed")
                .isEqualTo("pass_all_agree");
        // Control: the sandbox is on, and the reference's own binary is hidden.
        GoalResult control = threeColumn("prefix", SandboxSpec.Mode.REQUIRED, reference,
                List.of("/bin/sh", "-c", "exec " + dir.resolve("frozen/bin/ref") + " \"$@\"", "sh"));
        assertThat(control.worst()).isNotEqualTo("pass_all_agree");
    }

    /**
     * python3 -m: the reference's code is a module, named by no word; any file the command also names (its input)
     * is taken for the reference's own and the interpreter check passes. The module stays visible and unfrozen.
     */
    @Test
    void aCandidateRunsAReferenceModuleNamedByNoWord() throws Exception {
        Files.createDirectories(dir.resolve("refbilling"));
        Files.createDirectories(dir.resolve("data"));
        Files.writeString(dir.resolve("refbilling/__main__.py"), "import sys\nprint('secret-answer', sys.argv[-1])\n");
        Files.writeString(dir.resolve("data/rates.csv"), "rate,1\n");
        List<String> reference = List.of("/usr/bin/python3", "-m", "refbilling", "data/rates.csv");
        // The candidate is handed the same input, as an honest C candidate would be.
        List<String> candidate = List.of("/bin/sh", "-c", "exec /usr/bin/python3 -m refbilling \"$@\"", "sh", "data/rates.csv");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> threeColumn("module", SandboxSpec.Mode.REQUIRED, reference, candidate))
                .as("code named by no file (a module) can be neither frozen nor hidden").hasMessageContaining("with its code in -m");
    }

    /** The same with the shell: any named data word silences the "interpreter that names no file" check (red team 14's -c). */
    @Test
    void aCandidateSourcesAReferenceScriptNamedInsideDashC() throws Exception {
        Files.createDirectories(dir.resolve("ref"));
        Files.createDirectories(dir.resolve("data"));
        Files.writeString(dir.resolve("ref/ref.sh"), "echo secret-answer \"$2\"\n");
        Files.writeString(dir.resolve("data/rates.csv"), "rate,1\n");
        List<String> reference = List.of("/bin/sh", "-c", ". ref/ref.sh", "sh", "data/rates.csv");
        List<String> candidate = List.of("/bin/sh", "-c", ". ref/ref.sh", "sh", "data/rates.csv");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> threeColumn("dashc", SandboxSpec.Mode.REQUIRED, reference, candidate))
                .as("code inside -c, whatever else the command names").hasMessageContaining("with its code in -c");
    }

    /**
     * An interpreter outside the distribution's directories (/usr/local/bin/python3 in the python Docker images, a
     * conda or pyenv python): it is taken for the reference's own file, so ITS directory is hidden, and the script's
     * directory (the modules the script imports) is not.
     */
    @Test
    void aCandidateReadsTheModulesBesideAScriptRunByANonDistributionInterpreter() throws Exception {
        Path interpreter = dir.resolve("local/bin/sh");
        Files.createDirectories(interpreter.getParent());
        Files.copy(Path.of("/bin/sh").toRealPath(), interpreter, StandardCopyOption.COPY_ATTRIBUTES);
        Files.createDirectories(dir.resolve("frozen"));
        Files.writeString(dir.resolve("frozen/ref.sh"), ". frozen/refcore.sh\nanswer \"$1\"\n");
        Files.writeString(dir.resolve("frozen/refcore.sh"), "answer() { echo secret-answer \"$1\"; }\n");
        List<String> reference = List.of(interpreter.toString(), "frozen/ref.sh");
        List<String> candidate = List.of("/bin/sh", "-c", ". frozen/refcore.sh; answer \"$1\"", "sh");
        GoalResult boxed = threeColumn("local", SandboxSpec.Mode.REQUIRED, reference, candidate);
        assertThat(boxed.error()).isNull();
        assertThat(boxed.worst()).as("the script's directory is the reference's, wherever its interpreter is").isNotEqualTo("pass_all_agree");
        GoalResult control = threeColumn("local", SandboxSpec.Mode.REQUIRED, reference, List.of("/bin/sh", "-c", ". frozen/ref.sh", "sh"));
        assertThat(control.worst()).as("control: the named script is hidden").isNotEqualTo("pass_all_agree");
    }

    /** The module's other goals hide the reference's files, not its directory: a digest candidate reads the library beside it. */
    @Test
    void aDigestCandidateOfTheSameModuleReadsWhatLiesBesideTheReference() throws Exception {
        Path reference = dir.resolve("frozen/bin/ref");
        Files.createDirectories(reference.getParent());
        Files.copy(Path.of("/bin/echo"), reference, StandardCopyOption.COPY_ATTRIBUTES);
        Files.writeString(reference.resolveSibling("libref.so"), "secret-answer");
        List<Path> moduleOracles = ReferenceFiles.of(reference, List.of(reference.toString()), dir, dir).hidden(List.of());
        Path cases = Files.writeString(dir.resolve("cases.txt"), "hello\n");
        List<String> honest = List.of("/bin/sh", "-c", "echo secret-answer \"$1\"", "sh");
        GoalSettings rec = settings("digest", "d", SandboxSpec.Mode.REQUIRED, moduleOracles);
        DigestGoal.record(DigestOptions.of(rec, cases, dir.resolve("gold"), honest).buckets(TimeBuckets.parse("60000")).parallel(1).build(),
                GradeLog.SILENT);
        List<String> cheat = List.of("/bin/sh", "-c", "printf '%s %s\\n' \"$(cat frozen/bin/libref.so)\" \"$1\"", "sh");
        GoalResult graded = DigestGoal.grade(
                DigestOptions.of(rec, cases, dir.resolve("gold"), cheat).buckets(TimeBuckets.parse("60000")).parallel(1).build(), GradeLog.SILENT);
        assertThat(graded.error()).isNull();
        assertThat(graded.failures()).as("the reference's directory is hidden from the module's other goals too").isNotEmpty();
        List<String> control = List.of("/bin/sh", "-c", "exec frozen/bin/ref secret-answer \"$1\"", "sh");
        GoalResult hidden = DigestGoal.grade(
                DigestOptions.of(rec, cases, dir.resolve("gold"), control).buckets(TimeBuckets.parse("60000")).parallel(1).build(), GradeLog.SILENT);
        assertThat(hidden.failures()).as("control: the reference itself is hidden from the digest candidate").isNotEmpty();
    }

    /**
     * Two three-column executions of one module grading the same cases (say trim and ulp:2); the first keeps its
     * reports in a reportsDirectory of its own. Its JSON report holds every row's golden, and the second execution
     * hides only its own reports directory: the second candidate prints the goldens the first report holds.
     */
    @Test
    void aSecondExecutionsCandidateReadsTheGoldenFromTheFirstExecutionsReports() throws Exception {
        Path reference = Files.copy(Path.of("/bin/echo"), Files.createDirectories(dir.resolve("frozen")).resolve("ref"),
                StandardCopyOption.COPY_ATTRIBUTES);
        List<String> referenceCommand = List.of(reference.toString(), "secret-answer");
        Path cases = Files.createDirectories(dir.resolve("src/test/patchgrade")).resolve("cases.jsonl");
        Files.writeString(cases, "{\"id\":\"q\",\"args\":[\"question\"],\"golden\":\"" + GOLDEN + "\"}\n");
        Path sidecar = dir.resolve("src/test/patchgrade/reference.sha256");
        // What ModuleOracles hands both executions: the default oracle directory, the cases, the reference, and now
        // every execution's reports directory.
        List<Path> moduleOracles = List.of(dir.resolve("src/test/patchgrade"), cases, sidecar, reference, dir.resolve("target/tenths-reports"));
        GoalSettings first = new GoalSettings("three-column", "tenths", dir.resolve("target/tenths-reports"), dir.resolve("target/patchgrade"),
                dir, Map.of()).withSandbox(new SandboxSettings(SandboxSpec.Mode.REQUIRED, moduleOracles, dir, List.of(), List.of(), List.of()));
        ThreeColumnGoal.freeze(first, referenceCommand, sidecar, false, GradeLog.SILENT);
        // The first candidate is honest but wrong.
        GoalResult honest = ThreeColumnGoal.grade(ThreeColumnGoal.builder(first).cases(cases).reference(referenceCommand)
                .candidate(List.of("/bin/echo", "wrong")).referenceDigest(sidecar).comparison(Comparison.parse("trim")).timeoutSeconds(10)
                .parallel(1).build(), GradeLog.SILENT);
        assertThat(honest.worst()).isEqualTo("candidate_regression");
        GoalSettings second = settings("three-column", "ulp", SandboxSpec.Mode.REQUIRED, moduleOracles);
        List<String> cheat = List.of("/usr/bin/python3", "-c", "import json,sys\n"
                + "rows=json.load(open('target/tenths-reports/patchgrade.three-column.tenths.json'))['rows']\n"
                + "print([r['golden'] for r in rows if r['args']==sys.argv[1:]][0])");
        GoalResult graded = ThreeColumnGoal.grade(ThreeColumnGoal.builder(second).cases(cases).reference(referenceCommand).candidate(cheat)
                .referenceDigest(sidecar).comparison(Comparison.parse("trim")).timeoutSeconds(10).parallel(1).build(), GradeLog.SILENT);
        assertThat(graded.error()).isNull();
        assertThat(graded.worst()).as("the first execution's reports are hidden").isNotEqualTo("pass_all_agree");
    }

    /**
     * The reference is the distribution's own build of the program patched (grading a sort patch against /usr/bin/sort)
     * and its command names an input file: it is taken for a "runner", and a runner is never hidden. The candidate,
     * handed the same input, runs /usr/bin/sort.
     */
    @Test
    void aDistributionReferenceNamingAnInputIsNeverHidden() throws Exception {
        Files.createDirectories(dir.resolve("data"));
        Files.writeString(dir.resolve("data/words.txt"), "question\nsecret-answer\n");
        List<String> reference = List.of("/usr/bin/sort", "-r", "data/words.txt");
        Files.createDirectories(dir.resolve("src/test/patchgrade"));
        Files.writeString(dir.resolve("src/test/patchgrade/cases.jsonl"), "{\"id\":\"q\",\"args\":[],\"golden\":\"secret-answer\\nquestion\"}\n");
        List<String> honestCandidate = List.of("/bin/sh", "-c", "exec /usr/bin/sort -r \"$0\"", "data/words.txt");
        GoalResult boxed = threeColumn("distro", SandboxSpec.Mode.REQUIRED, reference, honestCandidate);
        assertThat(boxed.error()).isNull();
        assertThat(boxed.worst()).as("sort is the reference, not a runner of its input: hidden").isNotEqualTo("pass_all_agree");
        // Control: without the named input the same reference is hidden.
        Files.writeString(dir.resolve("src/test/patchgrade/cases.jsonl"), "{\"id\":\"q\",\"args\":[\"data/words.txt\"],\"golden\":\"secret-answer\\nquestion\"}\n");
        GoalResult control = threeColumn("distro2", SandboxSpec.Mode.REQUIRED, List.of("/usr/bin/sort", "-r"),
                List.of("/bin/sh", "-c", "exec /usr/bin/sort -r \"$@\"", "sh"));
        assertThat(control.worst()).isNotEqualTo("pass_all_agree");
    }

    /** A hidden distribution reference has other names (hard links): bzip2 is also bzcat and bunzip2. */
    @Test
    void aHiddenDistributionReferenceRunsUnderItsOtherName() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/bunzip2")), "bzip2 and its hard links (.ci/run installs it)");
        Files.createDirectories(dir.resolve("data"));
        Files.writeString(dir.resolve("data/x.txt"), GOLDEN + "\n");
        sh("bzip2 -k data/x.txt");
        Files.createDirectories(dir.resolve("src/test/patchgrade"));
        Files.writeString(dir.resolve("src/test/patchgrade/cases.jsonl"), "{\"id\":\"q\",\"args\":[\"-dc\",\"data/x.txt.bz2\"],\"golden\":\"" + GOLDEN + "\"}\n");
        List<String> reference = List.of("/usr/bin/bzip2");
        GoalResult control = threeColumn("bz", SandboxSpec.Mode.REQUIRED, reference, List.of("/bin/sh", "-c", "exec /usr/bin/bzip2 \"$@\"", "sh"));
        assertThat(control.worst()).as("control: /usr/bin/bzip2 is hidden").isNotEqualTo("pass_all_agree");
        GoalResult twin = threeColumn("bz", SandboxSpec.Mode.REQUIRED, reference, List.of("/bin/sh", "-c", "exec /usr/bin/bunzip2 \"$@\"", "sh"));
        assertThat(twin.worst()).as("its hard links are hidden with it").isNotEqualTo("pass_all_agree");
    }


    /** A compiled reference whose name is an interpreter's (grading a patch to lua, awk, dash...): its "script" is its data file. */
    @Test
    void aReferenceNamedLikeAnInterpreterLosesItsPrefix() throws Exception {
        build("lua");
        attack("lua", List.of(dir.resolve("frozen/bin/lua").toString(), "data/script.lua"),
                List.of(dir.resolve("target/cand").toString(), "data/script.lua"));
    }

    /** The same with no prefix: frozen/awk with libref.so beside it ($ORIGIN). */
    @Test
    void aReferenceNamedAwkLosesItsDirectory() throws Exception {
        build("ref");
        Files.writeString(dir.resolve("frozen/bin/awk.c"), "int ref_main(int, char **);\nint main(int c, char **v) { return ref_main(c, v); }\n");
        sh("mv frozen/lib/libref.so frozen/bin/ && rmdir frozen/lib && cp data/script.lua data/prog.awk"
                + " && gcc -o frozen/bin/awk frozen/bin/awk.c -Lfrozen/bin -lref -Wl,-rpath,'$ORIGIN' && rm frozen/bin/awk.c"
                + " && sed -i 's#frozen/lib/libref.so#frozen/bin/libref.so#' target/cand.c && gcc -o target/cand target/cand.c -ldl");
        attack("awk", List.of(dir.resolve("frozen/bin/awk").toString(), "-f", "data/prog.awk"),
                List.of(dir.resolve("target/cand").toString(), "-f", "data/prog.awk"));
    }

    /** A wrapper's option file (valgrind's suppressions) is taken for the reference's own file: the reference's prefix stays visible. */
    @Test
    void aWrappersOptionFileIsTakenForTheReference() throws Exception {
        build("ref");
        attack("valgrind", List.of("/usr/bin/valgrind", "-q", "--suppressions=ci/vg.supp", dir.resolve("frozen/bin/ref").toString()),
                List.of(dir.resolve("target/cand").toString()));
    }

    /** The dynamic loader with --preload: the preloaded file is taken for the reference. */
    @Test
    void theLoadersPreloadIsTakenForTheReference() throws Exception {
        build("ref");
        sh("echo 'void nothing(void) {}' > ci/hook.c && gcc -shared -fPIC -o ci/hook.so ci/hook.c");
        attack("ldso", List.of("/lib64/ld-linux-x86-64.so.2", "--preload", dir.resolve("ci/hook.so").toString(), dir.resolve("frozen/bin/ref").toString()),
                List.of(dir.resolve("target/cand").toString()));
    }

    /** Control: the same reference named ref: its prefix is hidden and the candidate fails. */
    @Test
    void controlAReferenceNamedRefKeepsItsPrefix() throws Exception {
        build("ref");
        GoalResult boxed = threeColumn("control", SandboxSpec.Mode.REQUIRED, List.of(dir.resolve("frozen/bin/ref").toString(), "data/script.lua"),
                List.of(dir.resolve("target/cand").toString(), "data/script.lua"));
        assertThat(boxed.worst()).isNotEqualTo("pass_all_agree");
    }

    /** Red team 16's python3 -m, behind timeout: the wrapper's first named file (the data) is taken for the reference. */
    @Test
    void aModuleBehindTimeout() throws Exception {
        Files.createDirectories(dir.resolve("refbilling"));
        Files.createDirectories(dir.resolve("data"));
        Files.writeString(dir.resolve("refbilling/__main__.py"), "import sys\nprint('secret-answer', sys.argv[-1])\n");
        Files.writeString(dir.resolve("data/rates.csv"), "rate,1\n");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> threeColumn("tmo-module", SandboxSpec.Mode.REQUIRED,
                List.of("/usr/bin/timeout", "10", "/usr/bin/python3", "-m", "refbilling", "data/rates.csv"),
                List.of("/bin/sh", "-c", "exec /usr/bin/python3 -m refbilling \"$@\"", "sh", "data/rates.csv")))
                .as("what the wrapper runs is classified in turn").hasMessageContaining("with its code in -m");
    }

    /** sh -c behind timeout, no data file at all: the root is timeout itself, the compiled reference is not hidden. */
    @Test
    void aShellDashCBehindTimeout() throws Exception {
        build("ref");
        String ref = dir.resolve("frozen/bin/ref").toString();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> threeColumn("tmo-dashc", SandboxSpec.Mode.REQUIRED,
                List.of("/usr/bin/timeout", "10", "/bin/sh", "-c", "exec " + ref + " \"$@\"", "sh"),
                List.of("/bin/sh", "-c", "exec " + ref + " \"$@\"", "sh"))).hasMessageContaining("with its code in -c");
    }

    /** A wrapper running a bare name found on the execution's PATH: it names no file, so timeout itself is "the reference". */
    @Test
    void aBareNameBehindTimeoutOnThePath() throws Exception {
        build("ref");
        environment = Map.of("PATH", dir.resolve("frozen/bin") + ":/usr/bin:/bin");
        attack("tmo-path", List.of("/usr/bin/timeout", "10", "ref"), List.of(dir.resolve("target/cand").toString()));
    }

    /**
     * A reference in its build tree as CMake leaves it: refbuild/programs/ref with an absolute RPATH to refbuild/lib
     * (or libtool's src/ref wrapper and lib/.libs). Only refbuild/programs is hidden.
     */
    @Test
    void aReferencesBuildTreeLibraryThroughAnAbsoluteRpath() throws Exception {
        build("ref");
        Files.createDirectories(dir.resolve("refbuild/programs"));
        Files.createDirectories(dir.resolve("refbuild/lib"));
        Files.writeString(dir.resolve("refbuild/programs/ref.c"), "int ref_main(int, char **);\nint main(int c, char **v) { return ref_main(c, v); }\n");
        sh("cp frozen/lib/libref.so refbuild/lib/ && gcc -o refbuild/programs/ref refbuild/programs/ref.c -Lrefbuild/lib -lref -Wl,-rpath," + dir.resolve("refbuild/lib")
                + " && rm refbuild/programs/ref.c && rm -r frozen && sed -i 's#frozen/lib/libref.so#refbuild/lib/libref.so#' target/cand.c && gcc -o target/cand target/cand.c -ldl");
        attack("buildtree", List.of(dir.resolve("refbuild/programs/ref").toString()), List.of(dir.resolve("target/cand").toString()));
    }

    /**
     * Perl's -I (like node's --require, ruby's -r): the reference's module lies in a directory only a flag names. Its
     * script's directory was hidden, the module's was not: the candidate loaded the module and called it.
     */
    @Test
    void aCandidateLoadsTheModuleAReferenceFlagNames() throws Exception {
        Files.createDirectories(dir.resolve("frozen/script"));
        Files.createDirectories(dir.resolve("modlib"));
        Files.writeString(dir.resolve("modlib/Ref.pm"), "package Ref;\nsub answer { print \"secret-answer $_[0]\\n\" }\n1;\n");
        Files.writeString(dir.resolve("frozen/script/ref.pl"), "use Ref; Ref::answer($ARGV[-1]);\n");
        Files.writeString(dir.resolve("cand.pl"), "use lib 'modlib'; use Ref; Ref::answer($ARGV[-1]);\n");
        attack("perl-I", List.of("/usr/bin/perl", "-Imodlib", "frozen/script/ref.pl"),
                List.of("/usr/bin/perl", dir.resolve("cand.pl").toString()));
    }

    /**
     * The module's oracles hold the reference's install prefix (frozen/bin/ref loses frozen/), hidden from every
     * launcher of the module: the reference's own launcher too, so a reference whose candidate lived elsewhere could
     * not start. The launcher that runs the reference sees its directories; the candidate's still does not.
     */
    @Test
    void theModuleHidesTheReferencesPrefixFromEveryLauncherButTheReferences() throws Exception {
        build("ref");
        moduleOracles = List.of(dir.resolve("frozen"));
        List<String> reference = List.of(dir.resolve("frozen/bin/ref").toString());
        GoalResult honest = threeColumn("module-prefix", SandboxSpec.Mode.REQUIRED, reference,
                List.of("/bin/sh", "-c", "echo \"secret-answer $1\"", "sh"));
        assertThat(honest.error()).as("the reference starts").isNull();
        assertThat(honest.worst()).isEqualTo("pass_all_agree");
        GoalResult cheat = threeColumn("module-prefix", SandboxSpec.Mode.REQUIRED, reference, List.of(dir.resolve("target/cand").toString()));
        assertThat(cheat.error()).isNull();
        assertThat(cheat.worst()).as("the candidate's launcher still hides the prefix").isNotEqualTo("pass_all_agree");
    }

}
