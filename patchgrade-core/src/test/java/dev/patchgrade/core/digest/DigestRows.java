package dev.patchgrade.core.digest;

import dev.patchgrade.core.cases.Case;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.launch.StreamDigest;
import dev.patchgrade.core.launch.Usage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/** Digest rows as a grade gives them, for the tally and the reporters: a case, its gold and candidate tuples, its drifts. */
final class DigestRows {
    private static final String OUT = "a".repeat(64);
    private static final String ERR = "e".repeat(64);

    private DigestRows() {}

    static DigestRow passing(String id) {
        DigestTuple tuple = new DigestTuple(id, 0, OUT, ERR, SanitizerClass.CLEAN, null);
        return new DigestRow(new Case(id, List.of(id), null, null, 1), tuple, tuple, List.of(), 0, launch("42\n", null), List.of(), null);
    }

    /** A case whose exit drifted (and, with more fields, those too), its streams kept in {@code streams} where given. */
    static DigestRow drifting(String id, Path streams, DriftField... fields) {
        DigestTuple gold = new DigestTuple(id, 0, OUT, ERR, SanitizerClass.CLEAN, null);
        DigestTuple candidate = new DigestTuple(id, 1, OUT, ERR, SanitizerClass.CLEAN, null);
        List<DigestTuple.Drift> drifts = java.util.Arrays.stream(fields).map(f -> new DigestTuple.Drift(f, "gold", "candidate")).toList();
        return new DigestRow(new Case(id, List.of(id), null, null, 1), gold, candidate, drifts, 0, launch("41\n", streams == null ? null : streams.resolve(id)),
                List.of(), null);
    }

    /** A case on which the candidate's sanitizer build reported an error the gold does not have. */
    static DigestRow sanitizerFinding(String id) {
        DigestRow row = drifting(id, null, DriftField.SANITIZER);
        return new DigestRow(row.testCase(), row.gold(), row.candidate(), row.drifts(), 0, row.launch(), List.of(),
                "AddressSanitizer: heap-buffer-overflow in lookup");
    }

    private static LaunchResult launch(String stdout, Path kept) {
        byte[] out = stdout.getBytes(StandardCharsets.UTF_8);
        return new LaunchResult(null, 0, null, null, false, false, Usage.UNAVAILABLE, 1_500,
                new StreamDigest(OUT, out.length, out, new byte[0], kept == null ? null : Path.of(kept + ".stdout")),
                new StreamDigest(ERR, 0, new byte[0], new byte[0], kept == null ? null : Path.of(kept + ".stderr")));
    }
}
