package dev.patchgrade.core.launch;

import dev.patchgrade.core.hashing.Sha256;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.PatchgradeException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.Set;

/**
 * Reads a kept output back exactly as it was captured when its run ended: opened without following
 * links, hashed as it is read, and checked against the captured SHA-256 when closed (the rest is read
 * then). Bytes that changed since (another child of the build rewrote the file) end the grade with
 * {@code output_tampered} instead of being compared.
 */
public final class CapturedStream extends FilterInputStream {
    private final StreamDigest captured;
    private final MessageDigest digest = Sha256.digest();
    private long read;

    private CapturedStream(InputStream in, StreamDigest captured) {
        super(in);
        this.captured = captured;
    }

    public static CapturedStream open(StreamDigest captured) {
        if (captured.file() == null) {
            throw new IllegalArgumentException("the stream was not kept, so it cannot be read back");
        }
        try {
            return new CapturedStream(Channels.newInputStream(Files.newByteChannel(captured.file(),
                    Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))), captured);
        } catch (IOException e) {
            throw tampered(captured, "cannot be opened again (" + e.getMessage() + ")");
        }
    }

    private PatchgradeException tampered(String what) {
        return tampered(captured, what);
    }

    private static PatchgradeException tampered(StreamDigest captured, String what) {
        return new PatchgradeException(ErrorName.OUTPUT_TAMPERED, "the kept output " + captured.file() + " " + what + " since its run ended: "
                + "something else the build ran changed it, so no comparison of it can be trusted. Run with sandbox=required");
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            digest.update((byte) b);
            read++;
        }
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = super.read(buffer, offset, (int) Math.min(length, Math.max(1, captured.bytes() + 1 - read)));
        if (n > 0) {
            digest.update(buffer, offset, n);
            read += n;
        }
        return n;
    }

    @Override
    public void close() throws IOException {
        try {
            byte[] rest = new byte[1 << 16];
            while (read <= captured.bytes() && read(rest, 0, rest.length) > 0) {
                // drain: the check covers the whole stream, not only what the comparison needed
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            super.close();
        }
        if (read != captured.bytes() || !Sha256.hex(digest.digest()).equals(captured.sha256())) {
            throw tampered("no longer holds the " + captured.bytes() + " bytes (sha256 " + captured.sha256().substring(0, 12) + ") captured");
        }
    }
}
