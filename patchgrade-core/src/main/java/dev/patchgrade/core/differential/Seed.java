package dev.patchgrade.core.differential;

import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import java.security.SecureRandom;

/**
 * The seed a differential grade gives its generator. Without one configured, every grade draws a new one, so no
 * candidate can be written against the inputs of an earlier build; the seed is printed and kept in the reports,
 * and giving it back reproduces the grade exactly.
 *
 * @param value what {@code PATCHGRADE_SEED} holds, a whole number from 0 up
 * @param given whether it was configured ({@code false}: drawn for this grade)
 */
public record Seed(long value, boolean given) {
    /**
     * A drawn seed lies below this: ten decimal digits at most, and exact in every generator's arithmetic (a shell's,
     * awk's doubles, a 32-bit {@code unsigned}).
     */
    public static final long DRAWN_BELOW = 1L << 32;

    private static final SecureRandom RANDOM = new SecureRandom();

    public Seed {
        if (value < 0) {
            throw new IllegalArgumentException("a seed is not negative, was " + value);
        }
    }

    /** The configured seed, or {@code null} where none is configured (blank, as an unset property leaves it). */
    public static Seed parse(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        String digits = text.strip();
        if (digits.chars().allMatch(c -> c >= '0' && c <= '9') && digits.length() <= 19) {
            try {
                return new Seed(Long.parseLong(digits), true);
            } catch (NumberFormatException e) {
                // past Long.MAX_VALUE: reported below
            }
        }
        throw PatchgradeException.badParameter(Setting.SEED, "must be a whole number from 0 to " + Long.MAX_VALUE + ", as a grade prints it (found \""
                + text + "\")");
    }

    /** A new seed, unknown before this call. */
    public static Seed draw() {
        return new Seed(Math.floorMod(RANDOM.nextLong(), DRAWN_BELOW), false);
    }

    /** {@code configured}, or a new seed where it is {@code null}. */
    public static Seed orDraw(Seed configured) {
        return configured != null ? configured : draw();
    }

    @Override
    public String toString() {
        return Long.toString(value);
    }
}
