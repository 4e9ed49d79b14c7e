package dev.patchgrade.core;

import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * How the core's messages show a setting and a command to run, filled by the build tool that runs the
 * goals (as Jib's {@code HelpfulSuggestions} is by its Maven and Gradle plugins): the core says which
 * setting, the plugin says which POM element and which {@code -D} flag.
 */
public interface Suggestions {
    /** Stands for the execution id in a command shown by a caller that does not know it. */
    String SOME_EXECUTION = "ID";

    /** A command that runs {@code goal} again for this execution with these settings. */
    default String rerun(String goal, String executionId, Setting.Value... values) {
        String given = Stream.of(values).map(this::once).collect(Collectors.joining(separator()));
        return command(goal, executionId) + (given.isEmpty() ? "" : introduction() + given);
    }

    /** A command that runs {@code goal} again for this execution, as configured. */
    String command(String goal, String executionId);

    /** What stands before the settings of a {@link #rerun}, and between them. */
    String introduction();

    String separator();

    /** Where the setting is given, to name what to fix. */
    String setting(Setting setting);

    /** The setting with a value, as given for one run. */
    String once(Setting.Value value);

    /** The setting with a value, as written in the build file. */
    String configured(Setting.Value value);

    /** A system property given to the JVM that runs the goals, where the build tool takes JVM options. */
    String forTheJvm(Setting.Value value);

    /** What to run so that a build starts again from nothing: its leftovers from earlier builds may be stale. */
    String cleanBuild();

    /** How to run again so that the log holds the stack trace of an unexpected error. */
    String withStackTraces();

    /** Names only: for callers that are no build tool (tests, other hosts). */
    Suggestions PLAIN = new Suggestions() {
        @Override
        public String command(String goal, String executionId) {
            return "run " + goal + " for execution " + executionId;
        }

        @Override
        public String introduction() {
            return " with ";
        }

        @Override
        public String separator() {
            return ", ";
        }

        @Override
        public String setting(Setting setting) {
            return setting.parameter() == null ? "the system property " + setting.property() : "the " + setting.name() + " setting";
        }

        @Override
        public String once(Setting.Value value) {
            return value.setting().name() + "=" + value.value();
        }

        @Override
        public String configured(Setting.Value value) {
            return once(value);
        }

        @Override
        public String forTheJvm(Setting.Value value) {
            return "the system property " + once(value);
        }

        @Override
        public String cleanBuild() {
            return "a clean build";
        }

        @Override
        public String withStackTraces() {
            return "with debug logging";
        }
    };
}
