package dev.patchgrade.core.digest;

import java.util.HexFormat;

/**
 * What a grade keeps of one gold file while the cases run: the tuple with its hashes as four longs
 * each instead of 64-character strings, and where the file is. A grade of 100,000 cases holds one per
 * case, so every field counts; the excerpts stay in the file until the case drifts.
 *
 * @param fileName the gold file's name, or {@code null} where it is {@link SafeNames#jsonFile} of the id (nearly always)
 * @param timeBucket one shared instance per bucket name, not one string per case
 * @param flags which of exit, the hashes, the time and the excerpts are there ({@code HAS_*})
 */
record GoldEntry(int exit, long out0, long out1, long out2, long out3, long err0, long err1, long err2, long err3, SanitizerClass sanitizer,
        String timeBucket, long timeMs, String fileName, byte flags) {
    private static final int HAS_EXIT = 1;
    private static final int HAS_STDOUT = 2;
    private static final int HAS_STDERR = 4;
    private static final int HAS_TIME = 8;
    private static final int HAS_EXCERPTS = 16;
    private static final HexFormat HEX = HexFormat.of();

    /** @param hashes lower-case hex, as {@link GoldStore} reads them; {@code timeBucket} already the shared instance */
    static GoldEntry of(DigestTuple tuple, String fileName, boolean excerpts) {
        long[] out = longs(tuple.stdoutSha256());
        long[] err = longs(tuple.stderrSha256());
        int flags = (tuple.exit() == null ? 0 : HAS_EXIT) | (out == null ? 0 : HAS_STDOUT) | (err == null ? 0 : HAS_STDERR)
                | (tuple.timeMs() == null ? 0 : HAS_TIME) | (excerpts ? HAS_EXCERPTS : 0);
        out = out == null ? new long[4] : out;
        err = err == null ? new long[4] : err;
        String name = SafeNames.jsonFile(tuple.caseId()).equals(fileName) ? null : fileName;
        return new GoldEntry(tuple.exit() == null ? 0 : tuple.exit(), out[0], out[1], out[2], out[3], err[0], err[1], err[2], err[3],
                tuple.sanitizer(), tuple.timeBucket(), tuple.timeMs() == null ? 0 : tuple.timeMs(), name, (byte) flags);
    }

    /** The tuple as it was read, rebuilt for the one case being graded. */
    DigestTuple tuple(String caseId) {
        return new DigestTuple(caseId, has(HAS_EXIT) ? exit : null, has(HAS_STDOUT) ? hex(out0, out1, out2, out3) : null,
                has(HAS_STDERR) ? hex(err0, err1, err2, err3) : null, sanitizer, timeBucket, has(HAS_TIME) ? timeMs : null);
    }

    String fileName(String caseId) {
        return fileName == null ? SafeNames.jsonFile(caseId) : fileName;
    }

    boolean hasExcerpts() {
        return has(HAS_EXCERPTS);
    }

    private boolean has(int flag) {
        return (flags & flag) != 0;
    }

    private static long[] longs(String hex) {
        if (hex == null) {
            return null;
        }
        long[] longs = new long[4];
        for (int i = 0; i < 4; i++) {
            longs[i] = HexFormat.fromHexDigitsToLong(hex, i * 16, i * 16 + 16);
        }
        return longs;
    }

    private static String hex(long a, long b, long c, long d) {
        return HEX.toHexDigits(a) + HEX.toHexDigits(b) + HEX.toHexDigits(c) + HEX.toHexDigits(d);
    }
}
