package dev.patchgrade.core.digest;

import dev.patchgrade.core.PatchgradeException;
import java.util.Locale;

/** What the graded binary was built with. */
public enum Sanitizer {
    NONE, UBSAN, ASAN;

    public static Sanitizer parse(String value) {
        try {
            return valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new PatchgradeException("bad_parameter", "<sanitizer> must be none, ubsan or asan (found \"" + value + "\")");
        }
    }
}
