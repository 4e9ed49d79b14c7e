package dev.patchgrade.core;

/**
 * A problem with the setup, not with the graded binary: a missing file, a malformed oracle, drift
 * in what the oracles describe. The {@link #errorName()} is the error type shown in reports
 * ({@code case_set_drift}, {@code oracle_tampered}, ...); the message names the file, the place and
 * the fix.
 */
public class PatchgradeException extends RuntimeException {
    private final String errorName;

    public PatchgradeException(String errorName, String message) {
        super(message);
        this.errorName = errorName;
    }

    public PatchgradeException(String errorName, String message, Throwable cause) {
        super(message, cause);
        this.errorName = errorName;
    }

    public String errorName() {
        return errorName;
    }
}
