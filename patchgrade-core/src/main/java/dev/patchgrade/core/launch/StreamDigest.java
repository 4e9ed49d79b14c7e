package dev.patchgrade.core.launch;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * One output stream of a run: its SHA-256 and size, computed while reading it once in fixed-size
 * blocks, and short excerpts of its beginning and end. {@code file} is where the whole stream is
 * kept, or {@code null} when the caller did not ask to keep it.
 */
public record StreamDigest(String sha256, long bytes, byte[] head, byte[] tail, Path file) {

    /** The excerpt as text: head, and when the stream was longer than both excerpts, an elision and the tail. */
    public String excerpt() {
        String start = new String(head, StandardCharsets.UTF_8);
        if (tail.length == 0) {
            return start;
        }
        long skipped = bytes - head.length - tail.length;
        String gap = skipped > 0 ? "\n[... " + skipped + " bytes not shown ...]\n" : "";
        return start + gap + new String(tail, StandardCharsets.UTF_8);
    }

    /** The same stream, kept at {@code at} (or no longer kept anywhere, for {@code null}). */
    public StreamDigest keptAs(Path at) {
        return new StreamDigest(sha256, bytes, head, tail, at);
    }

    public boolean complete() {
        return tail.length == 0 && head.length == bytes;
    }
}
