package dev.patchgrade.core.coverage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.patchgrade.core.RecordingLog;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.launch.SandboxSpec;
import dev.patchgrade.core.report.JsonReports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A clang build read with llvm-cov gcov, which has no JSON: its text listing gives the same verdict. */
class LlvmCovTest {
    @TempDir
    Path dir;

    private static String clang() {
        for (String name : List.of("clang", "clang-14", "clang-15", "clang-16")) {
            for (String directory : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
                if (Files.isExecutable(Path.of(directory, name))) {
                    return name;
                }
            }
        }
        return null;
    }

    @Test
    void llvmCovGcovReadsAClangBuildsDataAsGccsGcovReadsGccs() throws Exception {
        String clang = clang();
        assumeTrue(clang != null && Files.isExecutable(Path.of("/usr/bin/llvm-cov")), "clang and llvm-cov are needed (apt-get install clang)");
        CoverageProject project = CoverageProject.create(dir.resolve("p"));
        CoverageProject.run(project.root.resolve("build"), List.of(clang, "--coverage", "-O0", "-c", "../src/calc.c", "-o", "calc.o"));
        CoverageProject.run(project.root.resolve("build"), List.of(clang, "--coverage", "calc.o", "-o", "calc"));
        GoalSettings settings = project.settings("llvm", SandboxSpec.Mode.AUTO);
        GoalResult result = PatchCoverageGoal.grade(PatchCoverageGoal.Options.builder(settings)
                .cases(project.cases("llvm.jsonl", "scale-2 scale 2", "fork-3 fork 3")).command(List.of(project.binary.toString()))
                .gcov(PatchCoverageGoal.gcovCommand(List.of("llvm-cov gcov"))).parallel(2).timeoutSeconds(20).build(), new RecordingLog());
        assertThat(result.error()).isNull();
        JsonNode report = JsonReports.MAPPER.readTree(settings.jsonReport().toFile());
        assertThat(report.path("gcov_version").asText()).contains("LLVM");
        JsonNode calc = report.path("files").get(0);
        assertThat(calc.path("file").asText()).isEqualTo("src/calc.c");
        List<Integer> run = new ArrayList<>();
        calc.path("run_lines").forEach(n -> run.add(n.asInt()));
        List<Integer> notRun = new ArrayList<>();
        calc.path("not_run_lines").forEach(n -> notRun.add(n.asInt()));
        assertThat(run).containsExactlyElementsOf(project.marked("src/calc.c", "R"));
        assertThat(notRun).containsExactlyElementsOf(project.marked("src/calc.c", "N"));
    }
}
