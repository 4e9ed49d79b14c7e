package dev.patchgrade.core.cases;

import dev.patchgrade.core.hashing.Sha256;
import java.security.MessageDigest;

/**
 * A set of case ids kept as 64-bit keys (the first bytes of their SHA-256) in one array. A grade of
 * 100,000 cases checks its ids twice (duplicates in the cases file, the case set against the gold) while
 * it reads its oracles for seconds: held as strings in hash sets, they outlived enough collections to be
 * promoted and stayed in the old generation, dead, for the whole grade (issue 15). One long array is
 * freed as soon as it is dropped. Two ids may share a key (about 1 in 10^9 at 100,000 ids, and SHA-256
 * is not steered by whoever writes the ids), so a key found twice or missing is only a reason for the
 * caller to look again at the ids themselves, never a verdict on its own.
 */
public final class IdSet {
    private static final long EMPTY = 0;
    private final MessageDigest sha = Sha256.digest();
    private long[] slots = new long[64];
    private int size;

    /** @return whether the id's key was new */
    public boolean add(String id) {
        long key = key(id);
        if ((size + 1) * 2 > slots.length) {
            grow();
        }
        if (!insert(slots, key)) {
            return false;
        }
        size++;
        return true;
    }

    /**
     * The bytes of an id that its key is the hash of: its UTF-16 code units, every one of them. UTF-8 would write a
     * lone surrogate as '?', so that "x?" and "x" followed by a lone U+D800 had one key: a cases file naming the one and a gold holding
     * the other would look like the same case set.
     */
    public static byte[] hashed(String id) {
        byte[] bytes = new byte[id.length() * 2];
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            bytes[2 * i] = (byte) (c >> 8);
            bytes[2 * i + 1] = (byte) c;
        }
        return bytes;
    }

    public boolean contains(String id) {
        return containsKey(key(id));
    }

    /** How many distinct keys: the number of ids added, unless two of them share a key. */
    public int size() {
        return size;
    }

    /** Whether both hold the same keys. */
    public boolean sameKeys(IdSet other) {
        if (size != other.size) {
            return false;
        }
        for (long key : slots) {
            if (key != EMPTY && !other.containsKey(key)) {
                return false;
            }
        }
        return true;
    }

    private boolean containsKey(long key) {
        int mask = slots.length - 1;
        for (int i = slot(key, mask); ; i = (i + 1) & mask) {
            if (slots[i] == EMPTY) {
                return false;
            }
            if (slots[i] == key) {
                return true;
            }
        }
    }

    private static boolean insert(long[] table, long key) {
        int mask = table.length - 1;
        for (int i = slot(key, mask); ; i = (i + 1) & mask) {
            if (table[i] == EMPTY) {
                table[i] = key;
                return true;
            }
            if (table[i] == key) {
                return false;
            }
        }
    }

    private void grow() {
        long[] old = slots;
        slots = new long[old.length * 2];
        for (long key : old) {
            if (key != EMPTY) {
                insert(slots, key);
            }
        }
    }

    private static int slot(long key, int mask) {
        return (int) (key ^ (key >>> 32)) & mask;
    }

    private long key(String id) {
        byte[] hash = sha.digest(hashed(id));
        long key = 0;
        for (int i = 0; i < 8; i++) {
            key = (key << 8) | (hash[i] & 0xff);
        }
        // 0 marks an empty slot; the one id whose key is 0 shares a key with the one whose key is 1.
        return key == EMPTY ? 1 : key;
    }
}
