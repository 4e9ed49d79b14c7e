package dev.patchgrade.core.grade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.classify.Comparison;
import dev.patchgrade.core.ErrorName;
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

/**
 * The reference is what lives under its home: shown to its own runs, hidden from every candidate's, and from every
 * other execution of the module. A reference run through a program of the system must name its home.
 */
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
    /** The module's other goals hide the reference's home too: a digest candidate cannot read the library beside it. */
    @Test
    void aDigestCandidateOfTheSameModuleReadsWhatLiesBesideTheReference() throws Exception {
        Path reference = dir.resolve("frozen/bin/ref");
        Files.createDirectories(reference.getParent());
        Files.copy(Path.of("/bin/echo"), reference, StandardCopyOption.COPY_ATTRIBUTES);
        Files.writeString(reference.resolveSibling("libref.so"), "secret-answer");
        List<Path> moduleOracles = List.of(dir.resolve("frozen"));
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
        // What ModuleOracles hands both executions: the cases, the sidecar, the reference's home, every execution's reports directory.
        List<Path> moduleOracles = List.of(cases, sidecar, dir.resolve("frozen"), dir.resolve("target/tenths-reports"));
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


    /** sh frozen/ref.sh: the executable is the system's, whose directory cannot be the reference's: referenceHome is asked for. */
    @Test
    void aReferenceRunByASystemProgramMustNameItsHome() throws Exception {
        Files.createDirectories(dir.resolve("frozen"));
        Files.writeString(dir.resolve("frozen/ref.sh"), "echo \"secret-answer $1\"\n");
        dev.patchgrade.core.PatchgradeException error = org.assertj.core.api.Assertions.catchThrowableOfType(
                dev.patchgrade.core.PatchgradeException.class,
                () -> threeColumn("script", SandboxSpec.Mode.REQUIRED, List.of("/bin/sh", "frozen/ref.sh"), List.of("/bin/echo", "no")));
        assertThat(error.errorName()).isEqualTo(ErrorName.BAD_PARAMETER.wireName());
        assertThat(error.getMessage()).contains("referenceHome").contains("/bin/sh").contains("prefix of its own");
    }

    /** With referenceHome, the script and everything beside it are hidden from the candidate, and frozen with the interpreter. */
    @Test
    void aScriptReferenceWithItsHomeIsHiddenWhole() throws Exception {
        Files.createDirectories(dir.resolve("frozen/lib"));
        Files.writeString(dir.resolve("frozen/ref.sh"), ". frozen/lib/answer.sh\n");
        Files.writeString(dir.resolve("frozen/lib/answer.sh"), "echo \"secret-answer $1\"\n");
        List<String> reference = List.of("/bin/sh", "frozen/ref.sh");
        Path home = dir.resolve("frozen");
        assertThat(threeColumn("script", SandboxSpec.Mode.REQUIRED, reference, List.of("/bin/sh", "-c", "echo \"secret-answer $1\"", "sh"), home)
                .worst()).as("the reference runs from its home").isEqualTo("pass_all_agree");
        assertThat(Files.readString(dir.resolve("src/test/patchgrade/script.sha256"))).contains("frozen/ref.sh").contains("bin/sh");
        List<String> cheat = List.of("/bin/sh", "-c", ". frozen/lib/answer.sh", "sh");
        assertThat(threeColumn("script-open", SandboxSpec.Mode.OFF, reference, cheat, home).worst()).as("the cheat works unsandboxed")
                .isEqualTo("pass_all_agree");
        assertThat(threeColumn("script", SandboxSpec.Mode.REQUIRED, reference, cheat, home).worst()).as("the home is hidden from the candidate")
                .isNotEqualTo("pass_all_agree");
    }

    /** env PATH=refbuild/src sort runs a patched sort: whatever the wrapper finds, its home is the reference's. */
    @Test
    void aWrappedReferenceIsItsHome() throws Exception {
        patchedSort();
        List<String> reference = List.of("/usr/bin/env", "PATH=refbuild/src", "sort");
        attackWithHome("wrapped", reference, execOf("refbuild/src/sort"), dir.resolve("refbuild"));
    }

    /** A home that holds the candidate, or the directory the runs start in, would hide them from the candidate: an error saying so. */
    @Test
    void aHomeHoldingTheCandidateIsAnError() throws Exception {
        build("ref");
        GoalResult graded = threeColumn("wide", SandboxSpec.Mode.REQUIRED, List.of(p("frozen/bin/ref")), List.of(p("target/cand")), dir.resolve("target"));
        assertThat(graded.error()).isNotNull();
        assertThat(graded.error().getMessage()).contains("referenceHome").contains("holds the candidate");
        dev.patchgrade.core.PatchgradeException project = org.assertj.core.api.Assertions.catchThrowableOfType(
                dev.patchgrade.core.PatchgradeException.class,
                () -> threeColumn("project", SandboxSpec.Mode.REQUIRED, List.of(p("frozen/bin/ref")), List.of(p("target/cand")), dir));
        assertThat(project.getMessage()).contains("holds the working directory");
    }

    private void attackWithHome(String execution, List<String> reference, List<String> candidate, Path home) throws Exception {
        assertThat(threeColumn(execution + "-open", SandboxSpec.Mode.OFF, reference, candidate, home).worst()).as("the cheat works unsandboxed")
                .isEqualTo("pass_all_agree");
        GoalResult boxed = threeColumn(execution, SandboxSpec.Mode.REQUIRED, reference, candidate, home);
        assertThat(boxed.error()).isNull();
        assertThat(boxed.worst()).as("the cheat fails with the sandbox on").isNotEqualTo("pass_all_agree");
    }
}
