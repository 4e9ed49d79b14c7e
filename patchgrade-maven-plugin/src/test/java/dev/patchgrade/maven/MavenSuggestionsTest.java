package dev.patchgrade.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.Suggestions;
import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.digest.GoldStore;
import dev.patchgrade.core.digest.NormalizeRule;
import dev.patchgrade.core.digest.TimeBuckets;
import dev.patchgrade.core.grade.CaseRunner;
import dev.patchgrade.core.grade.ParameterValues;
import dev.patchgrade.core.grade.ModuleCheck;
import dev.patchgrade.core.grade.SandboxHints;
import dev.patchgrade.core.host.Toolchain;
import dev.patchgrade.core.launch.Launchers;
import dev.patchgrade.core.launch.SandboxSpec;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The core names settings; Maven users read POM elements and -D flags. */
class MavenSuggestionsTest {
    private final Suggestions maven = MavenSuggestions.INSTANCE;

    @TempDir
    Path dir;

    @Test
    void aRerunIsACommandThatRunsAsPrinted() {
        assertThat(maven.rerun("record-digest", "plain", Setting.FORCE.is("true"))).isEqualTo("mvn compile patchgrade:record-digest@plain -Dpatchgrade.force=true");
        assertThat(maven.rerun("freeze-reference", "ref")).isEqualTo("mvn compile patchgrade:freeze-reference@ref");
        assertThat(maven.rerun("record-envelope", "e", Setting.FORCE.is("true"), Setting.INSTRUCTION_COUNTER.is("perf")))
                .isEqualTo("mvn compile patchgrade:record-envelope@e -Dpatchgrade.force=true -Dpatchgrade.instructionCounter=perf");
    }

    @Test
    void aSettingIsItsPomElementAndAFlagItsUserProperty() {
        assertThat(maven.setting(Setting.parameter("command"))).isEqualTo("<command>");
        assertThat(maven.once(Setting.VERBOSE.is("true"))).isEqualTo("-Dpatchgrade.verbose=true");
        assertThat(maven.configured(Setting.FORCE.is("true"))).isEqualTo("<force>true</force>");
        assertThat(maven.once(Setting.parameter("command").is("x"))).as("no user property: the POM is the only place").isEqualTo("<command>x</command>");
    }

    @Test
    void theCoreAloneNamesTheSettingWithoutMavenSyntax() {
        assertThat(Suggestions.PLAIN.rerun("record-digest", "plain", Setting.FORCE.is("true"))).doesNotContain("mvn", "-D")
                .contains("record-digest", "plain", "force=true");
        assertThat(Suggestions.PLAIN.setting(Setting.parameter("command"))).doesNotContain("<");
    }

    @Test
    void settingsWithAUserPropertyAreAnElementInThePomAndAFlagOnTheCommandLine() {
        assertThat(maven.setting(Setting.PARALLEL)).isEqualTo("<parallel>");
        assertThat(maven.once(Setting.PARALLEL.is("4"))).isEqualTo("-Dpatchgrade.parallel=4");
        assertThat(maven.configured(Setting.TIME_BUCKETS.is("off"))).isEqualTo("<timeBuckets>off</timeBuckets>");
        assertThat(maven.once(Setting.SHARD.is("2/4"))).isEqualTo("-Dpatchgrade.shard=2/4");
    }

    @Test
    void aPartOfAStructuredParameterIsNestedAsThePomNestsIt() {
        assertThat(maven.configured(Setting.NORMALIZE_RULE.is("basedir"))).isEqualTo("<normalize><rule>basedir</rule></normalize>");
        assertThat(maven.setting(Setting.NORMALIZE_PATTERN)).isEqualTo("<pattern>");
        assertThat(maven.once(Setting.parameter("environment.LUA_PATH").is("value")))
                .isEqualTo("<environment><LUA_PATH>value</LUA_PATH></environment>");
    }

    @Test
    void aSystemPropertyIsOnlyAFlag() {
        assertThat(maven.setting(Setting.CACHE_DIR)).isEqualTo("-Dpatchgrade.cacheDir");
        assertThat(maven.configured(Setting.CACHE_DIR.is("/tmp/c"))).isEqualTo("-Dpatchgrade.cacheDir=/tmp/c");
    }

    /** One message of each family the core once wrote in Maven syntax, shown to a Maven user as before. */
    @Test
    void coreErrorsShownByThePluginNameThePomElements() {
        assertThat(shownByMaven(() -> CaseRunner.requireWorkers(0))).isEqualTo("<parallel> must be at least 1 (found 0)");
        assertThat(shownByMaven(() -> Shard.parse("3/2"))).startsWith("<shard> must be K/N");
        assertThat(shownByMaven(() -> Toolchain.identify(dir.resolve("no-such-cc").toString())))
                .endsWith("set <compiler> to a compiler on the PATH, such as g++");
        assertThat(shownByMaven(() -> NormalizeRule.named("home")))
                .isEqualTo("rule name \"home\" in <normalize> is unknown; the one named rule is basedir (<normalize><rule>basedir</rule></normalize>); "
                        + "otherwise give <pattern> and <replacement>");
        assertThat(shownByMaven(() -> GoldStore.read(dir.resolve("none"), TimeBuckets.OFF))).endsWith("or fix the path in <gold>");
        assertThat(shownByMaven(() -> ParameterValues.command("command", java.util.Arrays.asList("x", null))))
                .startsWith("<command> has an empty argument (argument 2 of 2)");
        assertThat(new PatchgradeException(ErrorName.BAD_PARAMETER, "names no setting").message(maven)).as("shown as written")
                .isEqualTo("names no setting");
        assertThat(SandboxHints.forStderr(dir + ": No such file or directory", List.of(),
                List.of(dev.patchgrade.core.launch.SandboxSpec.of(dev.patchgrade.core.launch.SandboxSpec.Mode.REQUIRED)), null, maven))
                .singleElement().asString().contains("add it or its directory to <readOnlyPaths> (to <writablePaths>");
    }

    /** The three messages that once wrote Maven's own words into the core read as they did. */
    @Test
    void mavensOwnWordsComeFromThePlugin() {
        assertThat(maven.cleanBuild()).isEqualTo("`mvn clean verify`");
        assertThat(maven.withStackTraces()).isEqualTo("with -X");
        assertThat(maven.forTheJvm(Setting.SCRATCH.is("..."))).isEqualTo("MAVEN_OPTS=-Dpatchgrade.scratch=...");
        assertThat(maven.setting(Setting.SCRATCH)).isEqualTo("-Dpatchgrade.scratch");
    }

    @Test
    void theCoreMessagesThatNamedMavenReadAsTheyDid() throws Exception {
        Path record = dev.patchgrade.core.report.ExecutionSummary.file(dir, "digest.e");
        java.nio.file.Files.createDirectories(record.getParent());
        java.nio.file.Files.writeString(record, "{ not json");
        assertThat(shownByMaven(() -> ModuleCheck.read(dir, null))).endsWith("; delete it, or run `mvn clean verify`");
        Path file = java.nio.file.Files.writeString(dir.resolve("a-file"), "");
        System.setProperty(Setting.SCRATCH.property(), file.toString());
        try {
            assertThat(shownByMaven(() -> Launchers.open(GradeLog.SILENT, SandboxSpec.off(), 1, maven))).contains(
                    " (point -Dpatchgrade.scratch at a writable directory, e.g. MAVEN_OPTS=-Dpatchgrade.scratch=...): ");
        } finally {
            System.clearProperty(Setting.SCRATCH.property());
        }
    }

    private String shownByMaven(Runnable failing) {
        return catchThrowableOfType(PatchgradeException.class, failing::run).message(maven);
    }
}
