package dev.patchgrade.core.digest;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import java.nio.file.Path;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A regex and its replacement, applied line by line to stdout and stderr before hashing; or a named
 * rule. The one name is {@code basedir}: the project's absolute base directory becomes
 * {@code ${basedir}}, so output that names files of the checkout does not drift when it moves. A
 * named rule is recorded by its name alone, and equals any other rule of that name.
 *
 * @param name {@code basedir}, or {@code null} for a pattern rule
 */
public record NormalizeRule(String pattern, String replacement, String name) {
    public static final String BASEDIR = "basedir";

    public NormalizeRule {
        if (name != null) {
            if (!name.equals(BASEDIR)) {
                throw new PatchgradeException(ErrorName.BAD_PARAMETER, shown -> "rule name \"" + name + "\" in " + shown.setting(Setting.NORMALIZE)
                        + " is unknown; the one named rule is basedir (" + shown.configured(Setting.NORMALIZE_RULE.is(BASEDIR)) + "); otherwise give "
                        + shown.setting(Setting.NORMALIZE_PATTERN) + " and " + shown.setting(Setting.NORMALIZE_REPLACEMENT));
            }
        } else {
            if (pattern == null || pattern.isEmpty()) {
                throw new PatchgradeException(ErrorName.BAD_PARAMETER, shown -> shown.setting(Setting.NORMALIZE_PATTERN) + " is missing from a rule of "
                        + shown.setting(Setting.NORMALIZE) + "; give a regular expression, or the rule name basedir");
            }
            try {
                Pattern.compile(pattern);
            } catch (PatternSyntaxException e) {
                String problem = e.getDescription();
                throw new PatchgradeException(ErrorName.BAD_PARAMETER, shown -> "pattern \"" + pattern + "\" in " + shown.setting(Setting.NORMALIZE)
                        + " is not a valid regular expression: " + problem);
            }
        }
        replacement = replacement == null ? "" : replacement;
    }

    public NormalizeRule(String pattern, String replacement) {
        this(pattern, replacement, null);
    }

    /** The {@code basedir} rule for this project directory. */
    public static NormalizeRule basedir(Path projectDirectory) {
        // Not followed by more of a name: /work/lua must not turn /work/luajit into ${basedir}jit.
        return new NormalizeRule(Pattern.quote(projectDirectory.toAbsolutePath().normalize().toString()) + "(?![\\w.-])",
                Matcher.quoteReplacement("${basedir}"), BASEDIR);
    }

    /** A named rule as read from a gold file, where the directory it stood for is not known. */
    public static NormalizeRule named(String name) {
        return new NormalizeRule(null, "", name);
    }

    public Pattern compiled() {
        if (pattern == null) {
            throw new IllegalStateException("the " + name + " rule was not resolved against a project directory");
        }
        return Pattern.compile(pattern);
    }

    /** How messages and gold files show it: the name, or {@code pattern -> replacement}. */
    public String describe() {
        return name != null ? name : pattern + " -> " + replacement;
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof NormalizeRule rule)) {
            return false;
        }
        return name != null ? name.equals(rule.name) : rule.name == null && pattern.equals(rule.pattern) && replacement.equals(rule.replacement);
    }

    @Override
    public int hashCode() {
        return name != null ? name.hashCode() : Objects.hash(pattern, replacement);
    }
}
