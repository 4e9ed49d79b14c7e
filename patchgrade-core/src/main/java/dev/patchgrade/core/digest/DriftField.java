package dev.patchgrade.core.digest;

import java.util.Locale;

/**
 * What a digest case can drift in, most severe first: a truncated stream makes every hash lie, and a
 * sanitizer report or crash explains the exit and stream changes it causes. The wire name is the
 * failure type in the reports.
 */
public enum DriftField {
    OUTPUT_LIMIT,
    SANITIZER,
    EXIT,
    STDOUT_SHA256,
    STDERR_SHA256,
    TIME_BUCKET;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The worse of two, {@code null} counting as no drift at all. */
    public static DriftField worse(DriftField one, DriftField other) {
        if (one == null) {
            return other;
        }
        return other == null || one.compareTo(other) <= 0 ? one : other;
    }

    @Override
    public String toString() {
        return wireName();
    }
}
