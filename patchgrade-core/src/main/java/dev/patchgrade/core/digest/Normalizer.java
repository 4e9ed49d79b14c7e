package dev.patchgrade.core.digest;

import dev.patchgrade.core.hashing.Sha256;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Hashes a stream after the normalisation rules rewrote each line. Bytes are read as ISO-8859-1, so
 * any byte sequence survives unchanged where no rule matches; memory holds one line at a time
 * (lines longer than 1 MiB are processed in 1 MiB pieces).
 */
public final class Normalizer {
    private static final int MAX_LINE = 1 << 20;
    private final List<Pattern> patterns;
    private final List<String> replacements;

    public Normalizer(List<NormalizeRule> rules) {
        this.patterns = rules.stream().map(NormalizeRule::compiled).toList();
        this.replacements = rules.stream().map(NormalizeRule::replacement).toList();
    }

    public boolean active() {
        return !patterns.isEmpty();
    }

    public String apply(String line) {
        String out = line;
        for (int i = 0; i < patterns.size(); i++) {
            out = patterns.get(i).matcher(out).replaceAll(replacements.get(i));
        }
        return out;
    }

    public String sha256(Path file) {
        MessageDigest digest = Sha256.digest();
        eachLine(file, Long.MAX_VALUE, line -> {
            digest.update(line.getBytes(StandardCharsets.ISO_8859_1));
            return true;
        });
        return Sha256.hex(digest.digest());
    }

    /** The first {@code limit} bytes of the stream after normalisation, as UTF-8 text (the rules may make it longer or shorter). */
    public String text(Path file, long limit) {
        StringBuilder text = new StringBuilder();
        eachLine(file, limit, line -> {
            text.append(line);
            return true;
        });
        return new String(text.toString().getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
    }

    /** Whether a normalised line of the stream contains {@code needle} (UTF-8); reads the whole stream in constant memory. */
    public boolean contains(Path file, String needle) {
        String wanted = new String(needle.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
        boolean[] found = {false};
        eachLine(file, Long.MAX_VALUE, line -> {
            found[0] = line.contains(wanted);
            return !found[0];
        });
        return found[0];
    }

    /** Feeds each normalised line (ISO-8859-1, with its LF) of the first {@code limit} bytes to {@code sink} until it returns false. */
    private void eachLine(Path file, long limit, java.util.function.Predicate<String> sink) {
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            long read = 0;
            int b;
            while (read < limit && (b = in.read()) >= 0) {
                read++;
                line.write(b);
                if ((b == '\n' || line.size() >= MAX_LINE) && !sink.test(take(line))) {
                    return;
                }
            }
            if (line.size() > 0) {
                sink.test(take(line));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private String take(ByteArrayOutputStream line) {
        String text = line.toString(StandardCharsets.ISO_8859_1);
        line.reset();
        return apply(text);
    }
}
