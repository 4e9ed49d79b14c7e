package dev.patchgrade.core.digest;

import dev.patchgrade.core.report.FirstDifference;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;

/**
 * The {@code stdout_excerpt} and {@code stderr_excerpt} of a gold file: the first and last
 * {@code goldExcerptBytes} bytes of each normalised stream (the whole stream when it is no longer
 * than both), so that a drifting stream can be shown as its first differing line rather than as two hashes.
 */
public record StreamExcerpts(String stdout, String stderr) {
    public static final int DEFAULT_BYTES = 1024;
    /** Streams up to this size are normalised whole to cut the excerpt; longer ones only at both ends. */
    private static final long WHOLE = 1 << 20;
    private static final java.util.regex.Pattern GAP = java.util.regex.Pattern.compile("\n\\[\\.\\.\\. (\\d+) bytes not shown \\.\\.\\.\\]\n");

    /** The excerpt of one kept stream file, normalised like its hash. */
    public static String of(Path file, Normalizer normalizer, int bytes) {
        try {
            long size = Files.size(file);
            if (size <= WHOLE) {
                byte[] text = normalizer.text(file, WHOLE).getBytes(StandardCharsets.UTF_8);
                if (text.length <= 2L * bytes) {
                    return new String(text, StandardCharsets.UTF_8);
                }
                return cut(java.util.Arrays.copyOfRange(text, 0, bytes), text.length - 2L * bytes,
                        java.util.Arrays.copyOfRange(text, text.length - bytes, text.length));
            }
            byte[] head = normalizer.text(file, 4L * bytes).getBytes(StandardCharsets.UTF_8);
            byte[] tail;
            try (var channel = Files.newByteChannel(file)) {
                channel.position(size - bytes);
                java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocate(bytes);
                while (buffer.hasRemaining() && channel.read(buffer) > 0) {
                    // fill
                }
                tail = !normalizer.active() ? buffer.array()
                        : normalizer.apply(new String(buffer.array(), StandardCharsets.ISO_8859_1)).getBytes(StandardCharsets.ISO_8859_1);
            }
            return cut(java.util.Arrays.copyOf(head, Math.min(bytes, head.length)), size - 2L * bytes, tail);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private static String cut(byte[] head, long skipped, byte[] tail) {
        return new String(head, StandardCharsets.UTF_8) + "\n[... " + skipped + " bytes not shown ...]\n" + new String(tail, StandardCharsets.UTF_8);
    }

    /**
     * The first line where the candidate's stream differs from the gold excerpt, or {@code null} where
     * they agree as far as the excerpt goes.
     *
     * @param stream {@code stdout} or {@code stderr}
     */
    public static FirstDifference.Line firstDifference(String stream, String goldExcerpt, Path candidateFile, Normalizer normalizer) {
        if (goldExcerpt == null || candidateFile == null || !Files.isRegularFile(candidateFile)) {
            return null;
        }
        Matcher gap = GAP.matcher(goldExcerpt);
        boolean complete = !gap.find();
        List<String> gold = new ArrayList<>(FirstDifference.lines(complete ? goldExcerpt : goldExcerpt.substring(0, gap.start())));
        if (!complete && !gold.isEmpty()) {
            gold.remove(gold.size() - 1); // cut mid-line: only whole lines are compared
        }
        String candidate = normalizer.text(candidateFile, WHOLE);
        return FirstDifference.firstLine(stream, gold, complete, FirstDifference.lines(candidate));
    }
}
