package dev.patchgrade.core.grade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.cases.Case;
import dev.patchgrade.core.launch.SandboxSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What one launcher of a goal shows and hides, from what its runs are given and the module's oracles. */
class SandboxSpecOfGoalTest {
    @TempDir
    Path base;

    private GoalSettings settings(List<Path> moduleOracles, List<Path> readOnly) {
        SandboxSettings sandbox = new SandboxSettings(SandboxSpec.Mode.REQUIRED, moduleOracles, base, List.of(), readOnly, List.of());
        return new GoalSettings("digest", "cases", base.resolve("target/patchgrade-reports"), base.resolve("target/patchgrade"), base, Map.of())
                .withSandbox(sandbox);
    }

    @Test
    void theViewHoldsTheWorkingDirectoryTheProgramAndWhatTheCommandAndCasesName() throws Exception {
        Path outside = Files.createDirectories(base.resolveSibling(base.getFileName() + "-inputs"));
        Path named = Files.writeString(outside.resolve("named.txt"), "x");
        Path byCase = Files.writeString(outside.resolve("case.txt"), "x");
        Path byValue = Files.writeString(outside.resolve("value.txt"), "x");
        Path beside = Files.writeString(outside.resolve("beside.txt"), "x");
        try {
            RunInputs inputs = RunInputs.of(List.of("/bin/cat", named.toString(), "--in=" + byValue),
                    () -> List.of(new Case("c", List.of(byCase.toString()), null, null, 1)));
            SandboxSpec spec = settings(List.of(), List.of()).sandboxSpec(List.of(), inputs);
            assertThat(spec.holds(base)).isTrue();
            assertThat(spec.holds(named)).isTrue();
            assertThat(spec.holds(byCase)).isTrue();
            assertThat(spec.holds(byValue)).as("the value of a name=value word").isTrue();
            assertThat(spec.holds(beside)).as("a file beside a named one is not given").isFalse();
            assertThat(spec.holds(Path.of(System.getProperty("user.home"), ".m2"))).isFalse();
        } finally {
            for (Path file : List.of(named, byCase, byValue, beside, outside)) {
                Files.deleteIfExists(file);
            }
        }
    }

    @Test
    void oraclesAreHiddenNotTheirDirectories() throws Exception {
        Path tests = Files.createDirectories(base.resolve("src/test/patchgrade"));
        Path cases = Files.writeString(tests.resolve("cases.txt"), "a\n");
        Files.writeString(tests.resolve("workload.lua"), "print(1)\n");
        SandboxSpec spec = settings(List.of(), List.of()).sandboxSpec(List.of(cases), RunInputs.of(List.of("/bin/cat", "src/test/patchgrade/workload.lua")));
        assertThat(spec.hidden()).contains(cases).doesNotContain(tests);
        assertThat(spec.holds(tests.resolve("workload.lua"))).isTrue();
    }

    @Test
    void aModuleOracleHoldingWhatTheLauncherRunsIsLeftToIt() throws Exception {
        Path home = Files.createDirectories(base.resolve("target/frozen/bin")).getParent();
        Path reference = Files.copy(Path.of("/bin/echo"), home.resolve("bin/ref"));
        GoalSettings settings = settings(List.of(home), List.of());
        assertThat(settings.sandboxSpec(List.of(), RunInputs.of(List.of("/bin/echo"))).hidden()).as("hidden from every other launcher")
                .contains(home);
        assertThat(settings.sandboxSpec(List.of(), RunInputs.of(List.of(reference.toString())).showingAlso(List.of(home))).hidden())
                .as("the reference's own launcher sees its home").doesNotContain(home);
    }

    @Test
    void versionControlMetadataOfTheWorkingDirectoryIsHidden() throws Exception {
        Path git = Files.createDirectories(base.resolve(".git"));
        SandboxSpec spec = settings(List.of(), List.of()).sandboxSpec(List.of(), RunInputs.of(List.of("/bin/true")));
        assertThat(spec.hidden()).contains(git);
    }

    @Test
    void moreNamedPathsThanTheSandboxBindsIsAnErrorNamingReadOnlyPaths(@TempDir Path inputs) throws Exception {
        List<Case> cases = new java.util.ArrayList<>();
        for (int i = 0; i < SandboxSpec.MOST_OPERATIONS + 10; i++) {
            Path input = Files.writeString(inputs.resolve("in-" + i + ".txt"), "x");
            cases.add(new Case("c" + i, List.of(input.toString()), null, null, i + 1));
        }
        assertThat(org.assertj.core.api.Assertions.catchThrowableOfType(dev.patchgrade.core.PatchgradeException.class,
                () -> settings(List.of(), List.of()).openLauncher(dev.patchgrade.core.GradeLog.SILENT, List.of(), RunInputs.of(List.of("/bin/cat"),
                        () -> cases))).getMessage()).contains("readOnlyPaths").contains("more than the 4000");
        SandboxSpec grouped = settings(List.of(), List.of(inputs)).sandboxSpec(List.of(), RunInputs.of(List.of("/bin/cat"), () -> cases));
        assertThat(grouped.operations()).as("named in readOnlyPaths, the directory holds them all").isLessThan(100);
    }
}
