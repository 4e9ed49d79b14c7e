package dev.patchgrade.core.grade;

/**
 * A setting of a goal as the core names it: the parameter, and the user property where it has one. How a
 * person gives it (a POM element, a {@code -D} flag) is the build tool's to say: see {@link Suggestions}.
 *
 * @param property the user property, or {@code null} for a parameter that has none
 */
public record Setting(String parameter, String property) {
    public static final Setting FORCE = new Setting("force", "patchgrade.force");
    public static final Setting VERBOSE = new Setting("verbose", "patchgrade.verbose");
    public static final Setting INSTRUCTION_COUNTER = new Setting("instructionCounter", "patchgrade.instructionCounter");

    /** A parameter given only in the build file ({@code command}, {@code reference}, ...). */
    public static Setting parameter(String name) {
        return new Setting(name, null);
    }

    /** This setting with a value, for a command to run. */
    public Value is(String value) {
        return new Value(this, value);
    }

    public record Value(Setting setting, String value) {}
}
