package dev.patchgrade.core.launch;

import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;
import java.nio.file.Path;
import dev.patchgrade.core.hashing.Sha256;
import java.security.MessageDigest;

/** Hashes a child's output file in fixed-size blocks: memory use does not depend on the stream's size. */
public final class StreamHashing {
    public static final int DEFAULT_EXCERPT_BYTES = 4096;
    private static final int BLOCK = 1 << 16;

    private StreamHashing() {}

    /**
     * Digest, size, first and last {@code excerptBytes} of a file written by a child. The file is read
     * without following links, only if it is a regular file: a child that swapped its output for a
     * link to {@code /dev/zero} or a FIFO gets an error, not an endless read.
     */
    public static StreamDigest digestFile(Path file, int excerptBytes, boolean keep) {
        long sizeWhenOpened;
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!attributes.isRegularFile()) {
                throw new dev.patchgrade.core.PatchgradeException(dev.patchgrade.core.ErrorName.OUTPUT_TAMPERED, "the child's output " + file + " is no longer a regular "
                        + "file (a link, FIFO or device was put in its place while it ran), so it was not read. Treat the candidate as "
                        + "hostile, and run with sandbox=required");
            }
            if (attributes.size() == 0) {
                return new StreamDigest(Sha256.EMPTY, 0, new byte[0], new byte[0], keep ? file : null);
            }
            sizeWhenOpened = attributes.size();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the child's output " + file, e);
        }
        MessageDigest digest = Sha256.digest();
        byte[] head = new byte[0];
        long total = 0;
        try (InputStream in = Channels.newInputStream(Files.newByteChannel(file, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)))) {
            // Most streams are a few bytes: a block of their size (plus one, to see the end in one read) spares the
            // young generation 64 KiB a case. A file that grew since is still read whole, a block at a time.
            byte[] block = new byte[(int) Math.min(BLOCK, sizeWhenOpened + 1)];
            int n;
            while ((n = in.read(block)) > 0) {
                if (head.length < excerptBytes) {
                    int take = (int) Math.min(n, excerptBytes - head.length);
                    byte[] grown = new byte[head.length + take];
                    System.arraycopy(head, 0, grown, 0, head.length);
                    System.arraycopy(block, 0, grown, head.length, take);
                    head = grown;
                }
                digest.update(block, 0, n);
                total += n;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the child's output " + file, e);
        }
        byte[] tail = new byte[0];
        if (total > head.length) {
            int tailLength = (int) Math.min(excerptBytes, total - head.length);
            tail = new byte[tailLength];
            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
                raf.seek(total - tailLength);
                raf.readFully(tail);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the child's output " + file, e);
            }
        }
        return new StreamDigest(Sha256.hex(digest.digest()), total, head, tail, keep ? file : null);
    }
}
