package dev.patchgrade.core.report;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The part of a report that grows with every case, appended to a hidden file beside the report as the
 * cases finish: the report's head (counts, verdict) is known only at the end, and the cases must not
 * wait for it in memory.
 */
final class BodyFile implements AutoCloseable {
    private final Path file;
    private final OutputStream out;
    private boolean closed;

    BodyFile(Path report) {
        try {
            Path target = report.toAbsolutePath();
            Files.createDirectories(target.getParent());
            file = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".body");
            out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the report " + report, e);
        }
    }

    OutputStream stream() {
        return out;
    }

    /** Closes the body and appends it to {@code target}; the body file is deleted afterwards either way. */
    void copyTo(OutputStream target) throws IOException {
        out.close();
        closed = true;
        Files.copy(file, target);
    }

    @Override
    public void close() {
        try {
            if (!closed) {
                out.close();
                closed = true;
            }
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + file, e);
        }
    }
}
