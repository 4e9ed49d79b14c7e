package dev.patchgrade.core.grade;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.Suggestions;
import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.digest.GoldStore;
import dev.patchgrade.core.digest.NormalizeRule;
import dev.patchgrade.core.digest.TimeBuckets;
import dev.patchgrade.core.launch.Launchers;
import dev.patchgrade.core.launch.SandboxSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Without a build tool the core names its settings plainly: no POM element, no -D flag, no mvn command. */
class SettingNamesTest {
    @TempDir
    Path dir;

    @Test
    void aBadValueNamesTheSettingPlainly() {
        PatchgradeException parallel = catchThrowableOfType(PatchgradeException.class, () -> CaseRunner.requireWorkers(0));
        assertThat(parallel.getMessage()).isEqualTo("the parallel setting must be at least 1 (found 0)");
        assertThat(parallel.message(Suggestions.PLAIN)).isEqualTo(parallel.getMessage());
        assertThat(parallel.errorName()).isEqualTo("bad_parameter");
    }

    @Test
    void everyFormerlyMavenMessageIsNeutralWithTheCoreSuggestions() throws IOException {
        List<String> messages = List.of(
                catchThrowableOfType(PatchgradeException.class, () -> Shard.parse("3/2")).getMessage(),
                catchThrowableOfType(PatchgradeException.class, () -> NormalizeRule.named("home")).getMessage(),
                catchThrowableOfType(PatchgradeException.class, () -> TimeBuckets.checkSlack(0.5)).getMessage(),
                catchThrowableOfType(PatchgradeException.class, () -> GoldStore.read(dir.resolve("none"), TimeBuckets.OFF)).getMessage(),
                catchThrowableOfType(PatchgradeException.class, () -> ParameterValues.command("reference", java.util.Arrays.asList("x", ""))).getMessage(),
                catchThrowableOfType(PatchgradeException.class, () -> new GoalSettings("digest", "e", dir, dir, dir,
                        java.util.Collections.singletonMap("LUA_PATH", null))).getMessage(),
                SandboxHints.forStderr("/a/b.so: Read-only file system", List.of(), List.of(), null, Suggestions.PLAIN).get(0),
                unreadableReport().getMessage(),
                GoalRun.defect(new IllegalStateException("boom")).getMessage(),
                unwritableScratch().getMessage());
        // Any flag, not only ours: -X and MAVEN_OPTS are Maven's words as much as -Dpatchgrade.
        assertThat(messages).allSatisfy(message -> assertThat(message).doesNotContainPattern("<[a-zA-Z]+/?>")
                .doesNotContainPattern("(^|[ (=`])-[A-Za-z]").doesNotContain("mvn", "MAVEN_OPTS", "Maven"));
        assertThat(messages.get(1)).contains("rule name \"home\" in the normalize setting is unknown", "(normalize.rule=basedir)",
                "give the normalize.pattern setting and the normalize.replacement setting");
        assertThat(messages.get(3)).contains("`run record-digest for execution ID` and commit it, or fix the path in the gold setting");
        assertThat(messages.get(4)).startsWith("the reference setting has an empty argument (argument 2 of 2)");
        assertThat(messages.get(5)).contains("give it one, as in environment.LUA_PATH=value");
        assertThat(messages.get(6)).endsWith("add the directory to the writablePaths setting");
        assertThat(messages.get(7)).endsWith("; delete it, or run a clean build");
        assertThat(messages.get(8)).isEqualTo("java.lang.IllegalStateException: boom (a defect in patchgrade: run with debug logging for the stack trace "
                + "and report it)");
        assertThat(messages.get(9)).contains("(point the system property patchgrade.scratch at a writable directory, e.g. the system property "
                + "patchgrade.scratch=...)");
    }

    private PatchgradeException unreadableReport() throws IOException {
        Path record = dev.patchgrade.core.report.ExecutionSummary.file(dir, "digest.e");
        Files.createDirectories(record.getParent());
        Files.writeString(record, "{ not json");
        return catchThrowableOfType(PatchgradeException.class, () -> ModuleCheck.read(dir, null));
    }

    /** A scratch base that is a file: no directory can be made in it. */
    private PatchgradeException unwritableScratch() throws IOException {
        Path file = Files.writeString(dir.resolve("a-file"), "");
        System.setProperty(Setting.SCRATCH.property(), file.toString());
        try {
            return catchThrowableOfType(PatchgradeException.class, () -> Launchers.open(GradeLog.SILENT, SandboxSpec.off(), 1, Suggestions.PLAIN));
        } finally {
            System.clearProperty(Setting.SCRATCH.property());
        }
    }

    @Test
    void aSystemPropertyIsNamedAsOne() {
        assertThat(Suggestions.PLAIN.setting(Setting.CACHE_DIR)).isEqualTo("the system property patchgrade.cacheDir");
        assertThat(Suggestions.PLAIN.once(Setting.CACHE_DIR.is("/tmp/c"))).isEqualTo("patchgrade.cacheDir=/tmp/c");
        assertThat(Suggestions.PLAIN.configured(Setting.TIME_BUCKETS.is("off"))).isEqualTo("timeBuckets=off");
    }
}
