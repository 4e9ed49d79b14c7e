package dev.patchgrade.core.coverage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.RecordingLog;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.launch.SandboxSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each setup problem is an error that names it and the fix, and leaves the error reports. */
class PatchCoverageErrorsTest {
    @TempDir
    Path dir;

    private GoalResult grade(CoverageProject project, String execution, PatchCoverageGoal.Builder builder) {
        return PatchCoverageGoal.grade(builder.build(), new RecordingLog());
    }

    private PatchCoverageGoal.Builder options(CoverageProject project, GoalSettings settings) throws Exception {
        return PatchCoverageGoal.Options.builder(settings).cases(project.cases("e.jsonl", "scale-2 scale 2"))
                .command(List.of(project.binary.toString())).parallel(1).timeoutSeconds(20);
    }

    @Test
    void aBaseThatDoesNotResolveIsUnknownBase() throws Exception {
        CoverageProject project = CoverageProject.create(dir.resolve("p"));
        GoalSettings settings = project.settings("base", SandboxSpec.Mode.OFF);
        GoalResult result = grade(project, "base", options(project, settings).base("no-such-branch"));
        assertThat(result.error().error()).isEqualTo(ErrorName.UNKNOWN_BASE);
        assertThat(result.error().getMessage()).contains("\"no-such-branch\"", "names no commit or tree", "base=origin/main");
        assertThat(Files.readString(settings.xmlReport())).contains("<error", "type=\"unknown_base\"");
    }

    @Test
    void aBaseThatLooksLikeAnOptionIsABadParameter() throws Exception {
        CoverageProject project = CoverageProject.create(dir.resolve("p"));
        GoalResult result = grade(project, "opt", options(project, project.settings("opt", SandboxSpec.Mode.OFF)).base("--output=/tmp/x"));
        assertThat(result.error().error()).isEqualTo(ErrorName.BAD_PARAMETER);
        assertThat(result.error().getMessage()).contains("read as an option");
    }

    @Test
    void theDefaultBaseOfARepositoryWithOneCommitSaysItNeedsAParent() throws Exception {
        Path root = Files.createDirectories(dir.resolve("single"));
        Files.writeString(root.resolve("a.c"), "int main(void) { return 0; }\n");
        assumeTrue(CoverageProject.git(root, "init", "-q", ".") && CoverageProject.git(root, "add", ".")
                && CoverageProject.git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one"));
        CoverageProject project = CoverageProject.create(dir.resolve("p"));
        GoalSettings settings = project.settings("one", SandboxSpec.Mode.OFF);
        GoalResult result = grade(project, "one", options(project, settings).sourceRoot(root));
        assertThat(result.error().error()).isEqualTo(ErrorName.UNKNOWN_BASE);
        assertThat(result.error().getMessage()).contains("\"HEAD~1\"", "needs a parent commit");
    }

    @Test
    void sourcesOutsideAGitWorkTreeAreNotAWorkTree() throws Exception {
        CoverageProject project = CoverageProject.create(dir.resolve("p"));
        Path outside = Files.createDirectories(Files.createTempDirectory("patchgrade-nogit-"));
        try {
            GoalResult result = grade(project, "nogit", options(project, project.settings("nogit", SandboxSpec.Mode.OFF)).sourceRoot(outside));
            assertThat(result.error().error()).isEqualTo(ErrorName.NOT_A_WORK_TREE);
            assertThat(result.error().getMessage()).contains(outside.toString(), "not in a git work tree", "sourceRoot");
        } finally {
            Files.delete(outside);
        }
    }

    @Test
    void aGcovThatCannotRunIsToolUnavailable() throws Exception {
        CoverageProject project = CoverageProject.create(dir.resolve("p"));
        GoalResult result = grade(project, "gcov", options(project, project.settings("gcov", SandboxSpec.Mode.OFF)).gcov(List.of("no-such-gcov-7")));
        assertThat(result.error().error()).isEqualTo(ErrorName.TOOL_UNAVAILABLE);
        assertThat(result.error().getMessage()).contains("no-such-gcov-7", "the gcov setting", "llvm-cov gcov");
    }

    @Test
    void aBuildWithoutCoverageIsNoCoverageDataNamingTheFlag() throws Exception {
        CoverageProject project = CoverageProject.create(dir.resolve("p"));
        project.compile();
        GoalResult result = grade(project, "plain", options(project, project.settings("plain", SandboxSpec.Mode.OFF)));
        assertThat(result.error().error()).isEqualTo(ErrorName.NO_COVERAGE_DATA);
        assertThat(result.error().getMessage()).contains("none of the 1 case(s)", "--coverage", "CMAKE_C_FLAGS");
    }

    @Test
    void notesRemovedFromBesideTheObjectsAreNoCoverageDataNamingTheNotes() throws Exception {
        CoverageProject project = CoverageProject.create(dir.resolve("p"));
        Files.delete(project.root.resolve("build/calc.gcno"));
        GoalResult result = grade(project, "notes", options(project, project.settings("notes", SandboxSpec.Mode.OFF)));
        assertThat(result.error().error()).isEqualTo(ErrorName.NO_COVERAGE_DATA);
        assertThat(result.error().getMessage()).contains(project.root.resolve("build/calc.gcno").toString(), ".gcno");
    }

    @Test
    void noChangedCOrCppLineRunsNoCaseAndPasses() throws Exception {
        CoverageProject project = CoverageProject.create(dir.resolve("p"));
        project.write("README", "text\n");
        assumeTrue(CoverageProject.git(project.root, "add", ".") && CoverageProject.git(project.root, "-c", "user.name=t", "-c", "user.email=t@t",
                "commit", "-qm", "docs"));
        GoalSettings settings = project.settings("docs", SandboxSpec.Mode.OFF);
        GoalResult result = grade(project, "docs", options(project, settings).minimumPercent(100));
        assertThat(result.error()).isNull();
        assertThat(result.failed()).isFalse();
        assertThat(Files.readString(settings.xmlReport())).contains("<skipped message=\"git diff HEAD~1 changes no line of a C or C++ file");
    }

    @Test
    void aMinimumOutsideZeroToHundredIsABadParameter() throws Exception {
        CoverageProject project = CoverageProject.create(dir.resolve("p"));
        GoalResult result = grade(project, "min", options(project, project.settings("min", SandboxSpec.Mode.OFF)).minimumPercent(101));
        assertThat(result.error().error()).isEqualTo(ErrorName.BAD_PARAMETER);
        assertThat(result.error().getMessage()).contains("minimumPercent", "from 0", "101");
    }

    @Test
    void theEmptyTreeAsBaseCountsEveryLine() throws Exception {
        CoverageProject project = CoverageProject.create(dir.resolve("p"));
        GoalSettings settings = project.settings("all", SandboxSpec.Mode.OFF);
        GoalResult result = grade(project, "all", options(project, settings).base("4b825dc642cb6eb9a060e54bf8d69288fbee4904"));
        assertThat(result.error()).isNull();
        String json = Files.readString(settings.jsonReport());
        assertThat(json).contains("\"base_object\" : \"4b825dc642cb6eb9a060e54bf8d69288fbee4904\"");
        // main() itself is now a changed line, and the scale case ran it.
        assertThat(json).contains("int main(int argc, char **argv) {");
    }

    @Test
    void theGcovSettingAsOneStringIsSplitOnSpaces() {
        assertThat(PatchCoverageGoal.gcovCommand(List.of("llvm-cov gcov"))).containsExactly("llvm-cov", "gcov");
        assertThat(PatchCoverageGoal.gcovCommand(List.of("  gcov-12 "))).containsExactly("gcov-12");
        assertThat(PatchCoverageGoal.gcovCommand(List.of("llvm-cov", "gcov"))).containsExactly("llvm-cov", "gcov");
        assertThat(PatchCoverageGoal.gcovCommand(null)).containsExactly("gcov");
        assertThat(PatchCoverageGoal.gcovCommand(List.of(" "))).containsExactly("gcov");
    }

    @Test
    void aCaseKilledAtItsTimeoutCountsNothingAndIsNamed() throws Exception {
        CoverageProject project = CoverageProject.create(dir.resolve("p"));
        Path cases = Files.createDirectories(project.root.resolve("src/test/patchgrade")).resolve("slow.jsonl");
        Files.writeString(cases, "{\"id\": \"scale-2\", \"args\": [\"scale\", \"2\"]}\n{\"id\": \"slow\", \"args\": [\"sleep\"], \"timeout_s\": 1}\n");
        GoalSettings settings = project.settings("slow", SandboxSpec.Mode.OFF);
        RecordingLog log = new RecordingLog();
        GoalResult result = PatchCoverageGoal.grade(PatchCoverageGoal.Options.builder(settings).cases(cases).command(List.of(project.binary.toString()))
                .parallel(2).timeoutSeconds(20).build(), log);
        assertThat(result.error()).isNull();
        String json = Files.readString(settings.jsonReport());
        assertThat(json).contains("\"cases_timed_out\" : 1", "\"timed_out_cases\" : [ \"slow\" ]", "\"cases_without_data\" : 1");
        assertThat(log.warnings).anySatisfy(w -> assertThat(w).contains("1 case(s) timed out", "[slow]", "timeout"));
    }
}
