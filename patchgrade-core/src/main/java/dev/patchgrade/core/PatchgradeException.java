package dev.patchgrade.core;

/**
 * A problem with the setup, not with the graded binary: a missing file, a malformed oracle, drift
 * in what the oracles describe. The {@link #error()} is the error type shown in reports
 * ({@code case_set_drift}, {@code oracle_tampered}, ...); the message names the file, the place and
 * the fix.
 */
public class PatchgradeException extends RuntimeException {
    private final ErrorName error;

    public PatchgradeException(ErrorName error, String message) {
        super(message);
        this.error = error;
    }

    public PatchgradeException(ErrorName error, String message, Throwable cause) {
        super(message, cause);
        this.error = error;
    }

    public ErrorName error() {
        return error;
    }

    /** The name as reports write it. */
    public String errorName() {
        return error.wireName();
    }
}
