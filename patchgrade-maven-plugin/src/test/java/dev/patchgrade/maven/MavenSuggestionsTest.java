package dev.patchgrade.maven;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.grade.Setting;
import dev.patchgrade.core.grade.Suggestions;
import org.junit.jupiter.api.Test;

/** The core names settings; Maven users read POM elements and -D flags. */
class MavenSuggestionsTest {
    private final Suggestions maven = MavenSuggestions.INSTANCE;

    @Test
    void aRerunIsACommandThatRunsAsPrinted() {
        assertThat(maven.rerun("record-digest", "plain", Setting.FORCE.is("true"))).isEqualTo("mvn patchgrade:record-digest@plain -Dpatchgrade.force=true");
        assertThat(maven.rerun("freeze-reference", "ref")).isEqualTo("mvn patchgrade:freeze-reference@ref");
        assertThat(maven.rerun("record-envelope", "e", Setting.FORCE.is("true"), Setting.INSTRUCTION_COUNTER.is("perf")))
                .isEqualTo("mvn patchgrade:record-envelope@e -Dpatchgrade.force=true -Dpatchgrade.instructionCounter=perf");
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
}
