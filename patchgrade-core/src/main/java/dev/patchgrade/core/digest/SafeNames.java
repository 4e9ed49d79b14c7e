package dev.patchgrade.core.digest;

import dev.patchgrade.core.hashing.Sha256;

import java.nio.charset.StandardCharsets;

/**
 * File names derived from case ids. Only letters, digits, dot, dash and underscore survive; an id
 * that needed changes, was long, or could be confused with another gets a hash of the id appended,
 * so no {@code /}, {@code ..} or control character reaches the file system and no two ids collide.
 */
public final class SafeNames {
    private static final int MAX_STEM = 80;

    private SafeNames() {}

    public static String stem(String id) {
        StringBuilder safe = new StringBuilder();
        for (int i = 0; i < id.length() && safe.length() < MAX_STEM; i++) {
            char c = id.charAt(i);
            boolean keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
            safe.append(keep ? c : '_');
        }
        // A leading run of dots becomes one underscore; by hand, as String.replaceAll compiles a pattern at every case.
        int dots = 0;
        while (dots < safe.length() && safe.charAt(dots) == '.') {
            dots++;
        }
        String stem = dots == 0 ? safe.toString() : "_" + safe.substring(dots);
        // '~' never survives the filter, so a hashed name cannot equal an id kept as it is.
        if (stem.equals(id) && !stem.isEmpty()) {
            return stem;
        }
        String hash = Sha256.hex(Sha256.digest().digest(id.getBytes(StandardCharsets.UTF_8))).substring(0, 10);
        return (stem.isEmpty() ? "case" : stem) + "~" + hash;
    }

    public static String jsonFile(String id) {
        return stem(id) + ".json";
    }
}
