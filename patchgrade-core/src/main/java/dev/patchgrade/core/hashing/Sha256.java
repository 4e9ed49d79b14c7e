package dev.patchgrade.core.hashing;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256 as every part of patchgrade writes it: lower-case hex. Streams, oracles, gold digests, the
 * reference sidecar, shard assignment and safe file names all hash the same way.
 */
public final class Sha256 {
    /** The hash of no bytes: an empty stream's. */
    public static final String EMPTY = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    private Sha256() {}

    /** A value as drift lines and pages show it: the empty stream's hash with {@code (empty)} after it. */
    public static String shown(Object value) {
        return EMPTY.equals(value) ? value + " (empty)" : String.valueOf(value);
    }

    public static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    public static String hex(byte[] digest) {
        return HexFormat.of().formatHex(digest);
    }

    public static String hex(MessageDigest digest) {
        return hex(digest.digest());
    }

    /** The hex SHA-256 of {@code bytes}. */
    public static String of(byte[] bytes) {
        return hex(digest().digest(bytes));
    }
}
