package dev.patchgrade.maven;

import dev.patchgrade.core.grade.Setting;
import dev.patchgrade.core.grade.Suggestions;

/**
 * The core's settings as a Maven user gives them: a POM element, a {@code -D} user property, and a
 * command that re-runs one execution ({@code mvn patchgrade:record-digest@plain -Dpatchgrade.force=true}).
 */
final class MavenSuggestions implements Suggestions {
    static final MavenSuggestions INSTANCE = new MavenSuggestions();

    private MavenSuggestions() {}

    @Override
    public String command(String goal, String executionId) {
        return "mvn patchgrade:" + goal + "@" + executionId;
    }

    @Override
    public String introduction() {
        return " ";
    }

    @Override
    public String separator() {
        return " ";
    }

    @Override
    public String setting(Setting setting) {
        return "<" + setting.parameter() + ">";
    }

    @Override
    public String once(Setting.Value value) {
        Setting setting = value.setting();
        return setting.property() == null ? configured(value) : "-D" + setting.property() + "=" + value.value();
    }

    @Override
    public String configured(Setting.Value value) {
        String element = value.setting().parameter();
        return "<" + element + ">" + value.value() + "</" + element + ">";
    }
}
