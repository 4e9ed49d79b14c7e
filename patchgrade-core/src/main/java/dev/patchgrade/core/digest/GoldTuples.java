package dev.patchgrade.core.digest;

import dev.patchgrade.core.cases.IdSet;
import dev.patchgrade.core.hashing.Sha256;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * The gold tuples of a directory, kept from the one pass that reads and checks every gold file, so that
 * grading a case does not open and parse its file again (in a profile of a grade, that second read was a
 * third of a worker's Java time, and the JSON parser the largest thing the JIT compiled during it).
 * Packed in primitive arrays, about 100 bytes a case: a {@link DigestTuple} with its strings per case
 * would be about 400. Even packed, 100,000 cases raised Maven's peak RSS under -Xmx128m from +13% to +24%
 * of a 2,000-case grade's (issue 15 allows 20%): so only up to {@link #KEPT} cases are kept, and a larger
 * gold directory is graded reading each case's file again, as before. A case is found by the first 128
 * bits of the SHA-256 of its id (of {@link IdSet#hashed}, every UTF-16 unit of it); two ids sharing them
 * are not found in any case file (that would take about 2^64 ids), and should it happen, {@link #add} refuses the second, and the caller must not use
 * these tuples (a lookup of either id would find the first one's).
 */
final class GoldTuples {
    /** The most cases kept: about 1 MB. */
    static final int KEPT = 10_000;
    private static final HexFormat HEX = HexFormat.of();
    private static final SanitizerClass[] SANITIZERS = SanitizerClass.values();
    private static final byte EXIT_NULL = 1;
    private static final byte STDOUT_NULL = 2;
    private static final byte STDERR_NULL = 4;
    private static final byte TIME_NULL = 8;

    /** Workers look cases up at once; a digest is not theirs to share. */
    private static final ThreadLocal<MessageDigest> SHA = ThreadLocal.withInitial(Sha256::digest);
    /** The buckets the tuples name, each once; an entry keeps its index plus one (0: no bucket). */
    private final List<TimeBucket> buckets = new ArrayList<>();
    /** Open addressing over the entries: an entry's index plus one, 0 for a free slot. */
    private int[] table = new int[64];
    private long[] idHigh = new long[32];
    private long[] idLow = new long[32];
    /** Per entry, 8 words: the stdout hash, then the stderr hash. */
    private long[] hashes = new long[32 * 8];
    private int[] exits = new int[32];
    private long[] millis = new long[32];
    private byte[] sanitizers = new byte[32];
    private byte[] nulls = new byte[32];
    private short[] bucketOf = new short[32];
    private final int limit;
    private int size;

    GoldTuples() {
        this(KEPT);
    }

    /** @param limit the most tuples {@link #add} takes */
    GoldTuples(int limit) {
        this.limit = limit;
    }

    /**
     * Adds a tuple, on the thread that reads the gold; the grade's workers only {@link #get} once reading is done.
     *
     * @return false where the limit is reached, or a tuple of an id with the same 128-bit key is here already
     *     (then it is not added, and these tuples are not to be used)
     */
    boolean add(DigestTuple tuple) {
        if (size >= limit) {
            return false;
        }
        long[] id = key(tuple.caseId());
        if (find(id[0], id[1]) >= 0) {
            return false;
        }
        if (size == idHigh.length) {
            resize(Math.max(32, size * 2));
        }
        if ((size + 1) * 2 > table.length) {
            growTable();
        }
        int entry = size++;
        idHigh[entry] = id[0];
        idLow[entry] = id[1];
        byte flags = 0;
        flags |= putHash(entry * 8, tuple.stdoutSha256()) ? 0 : STDOUT_NULL;
        flags |= putHash(entry * 8 + 4, tuple.stderrSha256()) ? 0 : STDERR_NULL;
        if (tuple.exit() == null) {
            flags |= EXIT_NULL;
        } else {
            exits[entry] = tuple.exit();
        }
        if (tuple.timeMs() == null) {
            flags |= TIME_NULL;
        } else {
            millis[entry] = tuple.timeMs();
        }
        nulls[entry] = flags;
        sanitizers[entry] = (byte) tuple.sanitizer().ordinal();
        bucketOf[entry] = bucketIndex(tuple.timeBucket());
        insert(table, id[0], entry);
        return true;
    }

    /** The tuple recorded for {@code caseId}, or {@code null} where none is kept. */
    DigestTuple get(String caseId) {
        long[] id = key(caseId);
        int entry = find(id[0], id[1]);
        if (entry < 0) {
            return null;
        }
        byte flags = nulls[entry];
        return new DigestTuple(caseId, (flags & EXIT_NULL) != 0 ? null : exits[entry],
                (flags & STDOUT_NULL) != 0 ? null : hash(entry * 8), (flags & STDERR_NULL) != 0 ? null : hash(entry * 8 + 4),
                SANITIZERS[sanitizers[entry]], bucketOf[entry] == 0 ? null : buckets.get(bucketOf[entry] - 1),
                (flags & TIME_NULL) != 0 ? null : millis[entry]);
    }

    int size() {
        return size;
    }

    /** Done adding: the arrays shrink to the entries they hold, so that 10,000 cases do not keep room for 16,384. */
    GoldTuples seal() {
        resize(size);
        return this;
    }

    private boolean putHash(int at, String hex) {
        if (hex == null) {
            return false;
        }
        for (int word = 0; word < 4; word++) {
            hashes[at + word] = HEX.fromHexDigitsToLong(hex, word * 16, word * 16 + 16);
        }
        return true;
    }

    private String hash(int at) {
        StringBuilder hex = new StringBuilder(64);
        for (int word = 0; word < 4; word++) {
            hex.append(HEX.toHexDigits(hashes[at + word]));
        }
        return hex.toString();
    }

    private short bucketIndex(TimeBucket bucket) {
        if (bucket == null) {
            return 0;
        }
        int index = buckets.indexOf(bucket);
        if (index < 0) {
            buckets.add(bucket);
            index = buckets.size() - 1;
        }
        return (short) (index + 1);
    }

    private int find(long high, long low) {
        int mask = table.length - 1;
        for (int slot = slot(high, mask); ; slot = (slot + 1) & mask) {
            int entry = table[slot] - 1;
            if (entry < 0) {
                return -1;
            }
            if (idHigh[entry] == high && idLow[entry] == low) {
                return entry;
            }
        }
    }

    private static void insert(int[] into, long high, int entry) {
        int mask = into.length - 1;
        int slot = slot(high, mask);
        while (into[slot] != 0) {
            slot = (slot + 1) & mask;
        }
        into[slot] = entry + 1;
    }

    private static int slot(long high, int mask) {
        return (int) (high ^ (high >>> 32)) & mask;
    }

    private void growTable() {
        int[] bigger = new int[table.length * 2];
        for (int entry = 0; entry < size; entry++) {
            insert(bigger, idHigh[entry], entry);
        }
        table = bigger;
    }

    private void resize(int capacity) {
        idHigh = Arrays.copyOf(idHigh, capacity);
        idLow = Arrays.copyOf(idLow, capacity);
        hashes = Arrays.copyOf(hashes, capacity * 8);
        exits = Arrays.copyOf(exits, capacity);
        millis = Arrays.copyOf(millis, capacity);
        sanitizers = Arrays.copyOf(sanitizers, capacity);
        nulls = Arrays.copyOf(nulls, capacity);
        bucketOf = Arrays.copyOf(bucketOf, capacity);
    }

    private long[] key(String caseId) {
        byte[] digest = SHA.get().digest(IdSet.hashed(caseId));
        long high = 0;
        long low = 0;
        for (int i = 0; i < 8; i++) {
            high = (high << 8) | (digest[i] & 0xff);
            low = (low << 8) | (digest[i + 8] & 0xff);
        }
        return new long[] {high, low};
    }
}
