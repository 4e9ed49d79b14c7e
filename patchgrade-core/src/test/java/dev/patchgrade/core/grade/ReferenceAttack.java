package dev.patchgrade.core.grade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.classify.Comparison;
import dev.patchgrade.core.classify.ThreeColumnGoal;
import dev.patchgrade.core.launch.SandboxSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * A three-column grade in a project of its own, for attacks on the reference: one case whose golden
 * only the reference knows, a reference built as an attack needs it, and a candidate that tries to reach its code.
 */
abstract class ReferenceAttack {
    static final String GOLDEN = "secret-answer question";

    @TempDir
    Path dir;

    /** The execution's {@code <environment>}. */
    Map<String, String> environment = Map.of();

    /** What the module's other executions hide (ModuleOracles). */
    List<Path> moduleOracles = List.of();

    @BeforeEach
    void needsTheSandbox() {
        dev.patchgrade.core.SandboxAvailability.assumeAvailable();
    }

    GoalSettings settings(String goal, String execution, SandboxSpec.Mode mode, List<Path> oracles) {
        return new GoalSettings(goal, execution, dir.resolve("target/reports"), dir.resolve("target/patchgrade"), dir, environment)
                .withSandbox(new SandboxSettings(mode, oracles, dir, List.of(), List.of(), List.of()));
    }

    GoalSettings settings(String goal, String execution, SandboxSpec.Mode mode) {
        return settings(goal, execution, mode, List.of());
    }

    GoalResult threeColumn(String execution, SandboxSpec.Mode mode, List<String> reference, List<String> candidate) throws Exception {
        return threeColumn(execution, mode, reference, candidate, null);
    }

    GoalResult threeColumn(String execution, SandboxSpec.Mode mode, List<String> reference, List<String> candidate, Path referenceHome)
            throws Exception {
        GoalSettings settings = settings("three-column", execution, mode, moduleOracles);
        Path cases = dir.resolve("src/test/patchgrade/cases.jsonl");
        Files.createDirectories(cases.getParent());
        if (!Files.exists(cases)) {
            Files.writeString(cases, "{\"id\":\"q\",\"args\":[\"question\"],\"golden\":\"" + GOLDEN + "\"}\n");
        }
        Path sidecar = dir.resolve("src/test/patchgrade/" + execution + ".sha256");
        if (!Files.exists(sidecar)) {
            ThreeColumnGoal.freeze(settings, reference, referenceHome, sidecar, false, GradeLog.SILENT);
        }
        return ThreeColumnGoal.grade(ThreeColumnGoal.builder(settings).cases(cases).reference(reference).candidate(candidate).referenceHome(referenceHome)
                .referenceDigest(sidecar).comparison(Comparison.parse("trim")).timeoutSeconds(10).parallel(1).build(), GradeLog.SILENT);
    }

    void sh(String script) throws Exception {
        Process p = new ProcessBuilder("/bin/sh", "-c", script).directory(dir.toFile()).inheritIO().start();
        assertThat(p.waitFor()).as(script).isZero();
    }

    String p(String relative) {
        return dir.resolve(relative).toString();
    }

    /** A candidate that runs the program: not the reference's file itself (a candidate that is the reference gets its grade). */
    static List<String> execOf(String program) {
        return List.of("/bin/sh", "-c", "exec " + program + " \"$@\"", "sh");
    }

    /**
     * frozen/bin/NAME with its code in frozen/lib/libref.so ($ORIGIN/../lib), and target/cand, which dlopens the library
     * ($LIB, or frozen/lib/libref.so) and calls the reference's code; data/ and ci/ hold inputs the commands name.
     */
    void build(String name) throws Exception {
        Files.createDirectories(dir.resolve("frozen/bin"));
        Files.createDirectories(dir.resolve("frozen/lib"));
        Files.createDirectories(dir.resolve("target"));
        Files.createDirectories(dir.resolve("data"));
        Files.createDirectories(dir.resolve("ci"));
        Files.writeString(dir.resolve("data/input.txt"), "input\n");
        Files.writeString(dir.resolve("data/script.lua"), "-- input\n");
        Files.writeString(dir.resolve("ci/vg.supp"), "{\n   none\n   Memcheck:Leak\n   fun:nothing_at_all\n}\n");
        Files.writeString(dir.resolve("frozen/lib/libref.c"),
                "#include <stdio.h>\nint ref_main(int c, char **v) { printf(\"secret-answer %s\\n\", c > 1 ? v[c - 1] : \"\"); return 0; }\n");
        Files.writeString(dir.resolve("frozen/bin/ref.c"), "int ref_main(int, char **);\nint main(int c, char **v) { return ref_main(c, v); }\n");
        Files.writeString(dir.resolve("target/cand.c"), "#include <dlfcn.h>\n#include <stdio.h>\n#include <stdlib.h>\n"
                + "int main(int c, char **v) { const char *l = getenv(\"LIB\"); void *h = dlopen(l ? l : \"frozen/lib/libref.so\", RTLD_NOW);"
                + " if (!h) { puts(dlerror()); return 3; }\n"
                + "  int (*m)(int, char **) = (int (*)(int, char **)) dlsym(h, \"ref_main\"); return m(c, v); }\n");
        sh("gcc -shared -fPIC -o frozen/lib/libref.so frozen/lib/libref.c && rm frozen/lib/libref.c"
                + " && gcc -o frozen/bin/" + name + " frozen/bin/ref.c -Lfrozen/lib -lref -Wl,-rpath,'$ORIGIN/../lib' && rm frozen/bin/ref.c"
                + " && gcc -o target/cand target/cand.c -ldl");
    }

    /** refbuild/src/sort: a reference named like the system's program (a patch to coreutils' sort), printing the golden. */
    void patchedSort() throws Exception {
        Files.createDirectories(dir.resolve("refbuild/src"));
        Files.writeString(dir.resolve("refbuild/src/sort.c"),
                "#include <stdio.h>\nint main(int c, char **v) { printf(\"secret-answer %s\\n\", v[c - 1]); return 0; }\n");
        sh("gcc -o refbuild/src/sort refbuild/src/sort.c && rm refbuild/src/sort.c");
    }

    /** The cheat passes unsandboxed, and not with the sandbox on. */
    void attack(String execution, List<String> reference, List<String> candidate) throws Exception {
        cheatWorks(execution, reference, candidate, null);
    }

    /** The cheat passes unsandboxed and not sandboxed; and the reference's binary itself is hidden (control), where named. */
    void cheatWorks(String execution, List<String> reference, List<String> candidate, String hiddenBinary) throws Exception {
        assertThat(threeColumn(execution + "-open", SandboxSpec.Mode.OFF, reference, candidate).worst()).as("the cheat works unsandboxed")
                .isEqualTo("pass_all_agree");
        GoalResult boxed = threeColumn(execution, SandboxSpec.Mode.REQUIRED, reference, candidate);
        assertThat(boxed.error()).isNull();
        assertThat(boxed.worst()).as("the cheat fails with the sandbox on").isNotEqualTo("pass_all_agree");
        if (hiddenBinary != null) {
            GoalResult control = threeColumn(execution, SandboxSpec.Mode.REQUIRED, reference, execOf(hiddenBinary));
            assertThat(control.worst()).as("control: the sandbox is on and hides the reference binary itself").isNotEqualTo("pass_all_agree");
        }
    }
}
