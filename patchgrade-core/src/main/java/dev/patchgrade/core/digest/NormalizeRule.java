package dev.patchgrade.core.digest;

import dev.patchgrade.core.PatchgradeException;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** A regex and its replacement, applied line by line to stdout and stderr before hashing. */
public record NormalizeRule(String pattern, String replacement) {
    public NormalizeRule {
        if (pattern == null || pattern.isEmpty()) {
            throw new PatchgradeException("bad_parameter", "<normalize> rule without a <pattern>");
        }
        replacement = replacement == null ? "" : replacement;
        try {
            Pattern.compile(pattern);
        } catch (PatternSyntaxException e) {
            throw new PatchgradeException("bad_parameter", "<normalize> pattern \"" + pattern + "\" is not a valid regular expression: "
                    + e.getDescription());
        }
    }

    public Pattern compiled() {
        return Pattern.compile(pattern);
    }
}
