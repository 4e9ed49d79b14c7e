package dev.patchgrade.core;

import java.util.function.Function;

/**
 * A problem with the setup, not with the graded binary: a missing file, a malformed oracle, drift
 * in what the oracles describe. The {@link #error()} is the error type shown in reports
 * ({@code case_set_drift}, {@code oracle_tampered}, ...); the message names the file, the place and
 * the fix.
 *
 * <p>A message that names a setting is kept as a function of {@link Suggestions}: the parsers that throw it
 * (of a shard, a comparison, a gold file) do not know which build tool runs them, and the one that shows
 * the error does ({@link #message(Suggestions)}). {@link #getMessage()} names settings plainly.
 */
public class PatchgradeException extends RuntimeException {
    private final ErrorName error;
    private final transient Function<Suggestions, String> message;

    public PatchgradeException(ErrorName error, String message) {
        this(error, message, (Throwable) null);
    }

    public PatchgradeException(ErrorName error, String message, Throwable cause) {
        super(message, cause);
        this.error = error;
        this.message = shown -> message;
    }

    /** An error whose message names settings, each as {@code message}'s {@link Suggestions} shows it. */
    public PatchgradeException(ErrorName error, Function<Suggestions, String> message) {
        this(error, message, null);
    }

    public PatchgradeException(ErrorName error, Function<Suggestions, String> message, Throwable cause) {
        super(message.apply(Suggestions.PLAIN), cause);
        this.error = error;
        this.message = message;
    }

    /** A setting with a value it cannot take: {@code problem} follows the setting's name ("must be at least 1 (found 0)"). */
    public static PatchgradeException badParameter(Setting setting, String problem) {
        return new PatchgradeException(ErrorName.BAD_PARAMETER, shown -> shown.setting(setting) + " " + problem);
    }

    /** The message, its settings named as {@code shown} gives them (for Maven: the POM element and {@code -D} flag). */
    public String message(Suggestions shown) {
        return message == null ? getMessage() : message.apply(shown);
    }

    public ErrorName error() {
        return error;
    }

    /** The name as reports write it. */
    public String errorName() {
        return error.wireName();
    }
}
