package dev.patchgrade.maven;

import dev.patchgrade.core.Setting;
import dev.patchgrade.core.Suggestions;


/**
 * The core's settings as a Maven user gives them: a POM element, a {@code -D} user property, and a
 * command that re-runs one execution ({@code mvn compile patchgrade:record-digest@plain -Dpatchgrade.force=true}).
 */
final class MavenSuggestions implements Suggestions {
    static final MavenSuggestions INSTANCE = new MavenSuggestions();

    private MavenSuggestions() {}

    /** With {@code compile}: a project that builds its binary in Maven (CMake through exec) records the binary it has now, not the last one built. */
    @Override
    public String command(String goal, String executionId) {
        return "mvn compile patchgrade:" + goal + "@" + executionId;
    }

    @Override
    public String introduction() {
        return " ";
    }

    @Override
    public String separator() {
        return " ";
    }

    /** The POM element; a system property that no goal declares, its {@code -D} flag. */
    @Override
    public String setting(Setting setting) {
        if (setting.parameter() == null) {
            return "-D" + setting.property();
        }
        // A part of a structured parameter is named by its own element: the message names the parent where it matters.
        return "<" + setting.parameter().substring(setting.parameter().lastIndexOf('.') + 1) + ">";
    }

    @Override
    public String once(Setting.Value value) {
        Setting setting = value.setting();
        return setting.property() == null ? configured(value) : "-D" + setting.property() + "=" + value.value();
    }

    @Override
    public String configured(Setting.Value value) {
        Setting setting = value.setting();
        if (setting.parameter() == null) {
            return once(value);
        }
        // A part of a structured parameter is written inside its parent's element, as the POM nests it.
        String[] path = setting.parameter().split("\\.");
        StringBuilder open = new StringBuilder();
        StringBuilder close = new StringBuilder();
        for (String element : path) {
            open.append('<').append(element).append('>');
            close.insert(0, "</" + element + ">");
        }
        return open + value.value() + close;
    }

    /** The JVM that runs Maven takes its own options from {@code MAVEN_OPTS}. */
    @Override
    public String forTheJvm(Setting.Value value) {
        return "MAVEN_OPTS=-D" + value.setting().property() + "=" + value.value();
    }

    @Override
    public String cleanBuild() {
        return "`mvn clean verify`";
    }

    @Override
    public String withStackTraces() {
        return "with -X";
    }
}
