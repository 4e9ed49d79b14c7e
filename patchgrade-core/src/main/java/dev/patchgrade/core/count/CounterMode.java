package dev.patchgrade.core.count;

import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import java.util.Locale;

/** The {@code instructionCounter} setting: which counter measures {@code max_instructions}. */
public enum CounterMode {
    /** Hardware counters where the kernel allows, else Valgrind when it is on PATH, else none. */
    AUTO,
    PERF,
    VALGRIND,
    NONE;

    public static CounterMode parse(String value) {
        try {
            return valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw PatchgradeException.badParameter(Setting.INSTRUCTION_COUNTER, "must be auto, perf, valgrind or none (found \"" + value + "\")");
        }
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
