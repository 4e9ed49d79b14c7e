package dev.patchgrade.maven;

/**
 * One {@code <normalize>} rule: {@code <rule><pattern>0x[0-9a-f]+</pattern><replacement>0xADDR</replacement></rule>},
 * or a named rule, {@code <rule>basedir</rule>} (the project's absolute base directory becomes {@code ${basedir}}).
 * Applied line by line to stdout and stderr before hashing.
 */
public class Normalize {
    /** A Java regular expression. */
    private String pattern;

    /** What each match becomes; {@code $1} refers to a group. Empty by default. */
    private String replacement = "";

    /** A named rule instead of a pattern: {@code basedir}. */
    private String name;

    /** {@code <rule>basedir</rule>}: Maven calls this for a rule given as plain text. */
    public void set(String value) {
        this.name = value == null ? null : value.strip();
    }

    public String getPattern() {
        return pattern;
    }

    public String getReplacement() {
        return replacement;
    }

    public String getName() {
        return name;
    }
}
