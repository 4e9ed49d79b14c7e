package dev.patchgrade.core.cases;

import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.hashing.Sha256;
import java.nio.charset.StandardCharsets;

/**
 * Shard K of N: the cases whose id hashes to K. The hash depends on the id alone, so reordering or
 * adding cases never moves another case to a different shard, and N agents together grade each case once.
 */
public record Shard(int index, int count) {
    public static final Shard ALL = new Shard(1, 1);

    public static Shard parse(String text) {
        if (text == null || text.isBlank()) {
            return ALL;
        }
        String[] parts = text.strip().split("/");
        try {
            if (parts.length == 2) {
                int k = Integer.parseInt(parts[0].strip());
                int n = Integer.parseInt(parts[1].strip());
                if (n >= 1 && k >= 1 && k <= n) {
                    return new Shard(k, n);
                }
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw PatchgradeException.badParameter(Setting.SHARD, "must be K/N with 1 <= K <= N, e.g. 2/4 (found \"" + text + "\")");
    }

    public boolean all() {
        return count == 1;
    }

    public boolean selects(String id) {
        if (count == 1) {
            return true;
        }
        byte[] hash = Sha256.digest().digest(id.getBytes(StandardCharsets.UTF_8));
        long value = 0;
        for (int i = 0; i < 8; i++) {
            value = (value << 8) | (hash[i] & 0xff);
        }
        return Long.remainderUnsigned(value, count) == index - 1;
    }


    /** For suite names: {@code shard-2-of-4}, or empty for the whole set. */
    /** {@code K/N} as the reports give it, or {@code null} where every case runs. */
    public String reported() {
        return all() ? null : index + "/" + count;
    }

    public String label() {
        return all() ? "" : "shard-" + index + "-of-" + count;
    }
}
