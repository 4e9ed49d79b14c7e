package dev.patchgrade.core.digest;

import dev.patchgrade.core.hashing.Sha256;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The observable tuple of one case: what the gold directory locks and a candidate must reproduce.
 * Null hashes and exit mean the case timed out. {@code timeBucket} is {@code null} when time buckets
 * are off; {@code timeMs} is the fastest wall time measured, where known (gold files before it lack it).
 */
public record DigestTuple(String caseId, Integer exit, String stdoutSha256, String stderrSha256, SanitizerClass sanitizer, TimeBucket timeBucket,
        Long timeMs) {

    public DigestTuple(String caseId, Integer exit, String stdoutSha256, String stderrSha256, SanitizerClass sanitizer, TimeBucket timeBucket) {
        this(caseId, exit, stdoutSha256, stderrSha256, sanitizer, timeBucket, null);
    }

    /** This tuple with another time: the fastest of several runs, and its bucket. */
    public DigestTuple withTime(TimeBucket bucket, Long millis) {
        return new DigestTuple(caseId, exit, stdoutSha256, stderrSha256, sanitizer, bucket, millis);
    }

    /** The tuple's fields in the order a drift is reported; the first names the failure. */
    public static final List<DriftField> FIELDS = List.of(DriftField.SANITIZER, DriftField.EXIT, DriftField.STDOUT_SHA256,
            DriftField.STDERR_SHA256, DriftField.TIME_BUCKET);

    public Object field(DriftField name) {
        return switch (name) {
            case EXIT -> exit;
            case STDOUT_SHA256 -> stdoutSha256;
            case STDERR_SHA256 -> stderrSha256;
            case SANITIZER -> sanitizer;
            case TIME_BUCKET -> timeBucket;
            case OUTPUT_LIMIT -> throw new IllegalArgumentException("the output cap is a fact of the run, not a field of the tuple");
        };
    }

    /** The SHA-256 of no bytes at all: shown as such, since nobody recognises {@code e3b0c442...}. */
    public static final String EMPTY_SHA256 = Sha256.EMPTY;

    /**
     * A field that differs: the failure type is the field, the message {@code <gold> -> <cand>}, then the
     * {@code note} in brackets where there is one (the fastest time and the bucket's limits).
     */
    public record Drift(DriftField field, Object gold, Object candidate, String note) {
        public Drift(DriftField field, Object gold, Object candidate) {
            this(field, gold, candidate, null);
        }

        public String describe() {
            return field + ": " + Sha256.shown(gold) + " -> " + Sha256.shown(candidate) + (note == null ? "" : " (" + note + ")");
        }
    }

    public List<Drift> driftFrom(DigestTuple gold) {
        List<Drift> drifts = new ArrayList<>();
        for (DriftField field : FIELDS) {
            if (!Objects.equals(gold.field(field), field(field))) {
                drifts.add(new Drift(field, gold.field(field), field(field)));
            }
        }
        return drifts;
    }
}
