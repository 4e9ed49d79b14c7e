package dev.patchgrade.core.digest;

import dev.patchgrade.core.launch.StreamHashing;
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
        MessageDigest digest = StreamHashing.sha256();
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            int b;
            while ((b = in.read()) >= 0) {
                line.write(b);
                if (b == '\n' || line.size() >= MAX_LINE) {
                    update(digest, line);
                }
            }
            update(digest, line);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return StreamHashing.hex(digest.digest());
    }

    private void update(MessageDigest digest, ByteArrayOutputStream line) {
        if (line.size() == 0) {
            return;
        }
        String text = line.toString(StandardCharsets.ISO_8859_1);
        digest.update(apply(text).getBytes(StandardCharsets.ISO_8859_1));
        line.reset();
    }
}
