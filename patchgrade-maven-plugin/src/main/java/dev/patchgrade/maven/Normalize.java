package dev.patchgrade.maven;

/**
 * One {@code <normalize>} rule: {@code <rule><pattern>0x[0-9a-f]+</pattern><replacement>0xADDR</replacement></rule>}.
 * Applied line by line to stdout and stderr before hashing.
 */
public class Normalize {
    /** A Java regular expression. */
    private String pattern;

    /** What each match becomes; {@code $1} refers to a group. Empty by default. */
    private String replacement = "";

    public String getPattern() {
        return pattern;
    }

    public String getReplacement() {
        return replacement;
    }
}
