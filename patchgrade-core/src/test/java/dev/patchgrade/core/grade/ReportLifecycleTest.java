package dev.patchgrade.core.grade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.report.SectionView;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whatever happens inside a goal, its reports are its own and current, and two builds never mix. */
class ReportLifecycleTest {
    @TempDir
    Path dir;

    private GoalSettings settings() {
        return new GoalSettings("digest", "grade", dir.resolve("reports"), dir.resolve("out"), dir, Map.of());
    }

    @Test
    void anUnexpectedExceptionStillReplacesTheLastBuildsGreenReport() throws Exception {
        GoalSettings settings = settings();
        Files.createDirectories(settings.reportsDirectory());
        Files.writeString(settings.xmlReport(), "<testsuite name=\"stale\" tests=\"1\" failures=\"0\"/>");
        Files.writeString(settings.jsonReport(), "{\"verdict\": \"pass\"}");
        GoalResult result = GoalRun.grade(settings, "grade", e -> Map.of("goal", "digest", "verdict", "error"), () -> SectionView.NONE, GradeLog.SILENT,
                reports -> {
            throw new IllegalStateException("a defect");
        });
        assertThat(result.error().errorName()).isEqualTo("unexpected_error");
        assertThat(Files.readString(settings.xmlReport())).contains("<error", "type=\"unexpected_error\"", "a defect").doesNotContain("stale");
        assertThat(Files.readString(settings.jsonReport())).contains("\"verdict\" : \"error\"", "unexpected_error").doesNotContain("pass");
    }

    @Test
    void anErrorReportsHeadHasTheSameKeyOrderInEveryJvm() throws Exception {
        GoalSettings settings = settings();
        GoalResult result = dev.patchgrade.core.digest.DigestGoal.grade(dev.patchgrade.core.digest.DigestGoal.Options.builder(settings)
                .cases(dir.resolve("missing-cases.jsonl")).gold(dir.resolve("gold")).command(List.of("/bin/true")).build(), GradeLog.SILENT);
        assertThat(result.error()).isNotNull();
        String json = Files.readString(settings.jsonReport());
        // Map.of iterates in an order seeded per JVM: the head must read the same in every build.
        assertThat(json.indexOf("\"goal\"")).isGreaterThanOrEqualTo(0).isLessThan(json.indexOf("\"execution\""));
        assertThat(json.indexOf("\"execution\"")).isLessThan(json.indexOf("\"verdict\""));
    }

    @Test
    void anErrorReportsErrorObjectHasItsTypeBeforeItsMessageInEveryJvm() throws Exception {
        GoalSettings settings = settings();
        GoalRun.grade(settings, "grade", e -> GoalRun.head("goal", "digest", "execution", "grade", "verdict", "error"), () -> SectionView.NONE,
                GradeLog.SILENT, reports -> {
            throw new PatchgradeException(dev.patchgrade.core.ErrorName.MALFORMED_CASES, "cases.jsonl: line 3 is not JSON");
        });
        // Map.of iterates in an order seeded per JVM; the report is read by scripts and compared between builds.
        assertThat(Files.readString(settings.jsonReport())).startsWith("""
                {
                  "goal" : "digest",
                  "execution" : "grade",
                  "verdict" : "error",
                  "error" : {
                    "type" : "malformed_cases",
                    "message" : "cases.jsonl: line 3 is not JSON"
                  },
                  "sandbox" : {""");
    }

    @Test
    void aSecondGradeOfTheSameProjectAtOnceIsBuildInProgress() {
        GoalSettings settings = settings();
        try (BuildLock held = BuildLock.take(settings.outputDirectory())) {
            GoalResult second = GoalRun.grade(settings, "grade", e -> Map.of("goal", "digest"), () -> SectionView.NONE, GradeLog.SILENT,
                    reports -> new GoalResult(List.of(), null, "pass"));
            assertThat(second.error().errorName()).isEqualTo("build_in_progress");
            assertThat(second.error().getMessage()).contains(".build.lock");
        }
        assertThat(GoalRun.grade(settings, "grade", e -> Map.of(), () -> SectionView.NONE, GradeLog.SILENT,
                reports -> new GoalResult(List.of(), null, "pass")).error())
                .as("free again once the first is done").isNull();
    }

    @Test
    void anotherProcessHoldingTheLockStopsTheGrade() throws Exception {
        Path python = Path.of("/usr/bin/python3");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(python), "needs /usr/bin/python3 to hold a POSIX lock");
        Path lockFile = Files.createDirectories(dir.resolve("out")).resolve(".build.lock");
        Process holder = new ProcessBuilder(python.toString(), "-c", "import fcntl,sys,time\n"
                + "f=open(sys.argv[1],'a'); fcntl.lockf(f, fcntl.LOCK_EX); print('held', flush=True); time.sleep(60)", lockFile.toString())
                .redirectErrorStream(true).start();
        try {
            assertThat(new String(holder.getInputStream().readNBytes(5))).isEqualTo("held\n");
            assertThatThrownBy(() -> BuildLock.take(dir.resolve("out"))).isInstanceOf(PatchgradeException.class)
                    .satisfies(e -> assertThat(((PatchgradeException) e).errorName()).isEqualTo("build_in_progress"));
        } finally {
            holder.destroyForcibly();
            holder.waitFor(10, TimeUnit.SECONDS);
        }
        try (BuildLock mine = BuildLock.take(dir.resolve("out"))) {
            assertThat(lockFile).exists();
        }
    }
}
