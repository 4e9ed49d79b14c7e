package dev.patchgrade.core.hashing;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256 as every part of patchgrade writes it: lower-case hex. Streams, oracles, gold digests, the
 * reference sidecar, shard assignment and safe file names all hash the same way.
 */
public final class Sha256 {
    private Sha256() {}

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
