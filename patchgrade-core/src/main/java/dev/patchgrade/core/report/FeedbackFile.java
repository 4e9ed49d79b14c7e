package dev.patchgrade.core.report;

import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A grade's feedback JSON Lines ({@code patchgrade.<goal>.<executionId>.feedback.jsonl}), one line per failing row
 * for the next generation request: written to a body beside the file as rows fail, and put in place at the end,
 * empty where every row passed, so a file that is there is always a whole grade's.
 */
public final class FeedbackFile implements AutoCloseable {
    private static final ObjectWriter ONE_LINE = JsonReports.MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT);

    private final Path file;
    private Path body;
    private Writer lines;

    public FeedbackFile(Path file) {
        this.file = file;
    }

    public Path file() {
        return file;
    }

    /** One line: {@code line} as one JSON object. */
    public void add(Object line) {
        try {
            if (lines == null) {
                Files.createDirectories(file.getParent());
                body = Files.createTempFile(file.getParent(), "." + file.getFileName() + ".", ".body");
                lines = new BufferedWriter(Files.newBufferedWriter(body, StandardCharsets.UTF_8));
            }
            lines.write(ONE_LINE.writeValueAsString(line));
            lines.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** Puts the file in place: the lines added, or nothing. */
    public void finish() {
        try {
            if (lines == null) {
                AtomicFiles.write(file, new byte[0]);
            } else {
                lines.close();
                lines = null;
                AtomicFiles.write(file, out -> Files.copy(body, out));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        } finally {
            close();
        }
    }

    /** Drops an unfinished body. */
    @Override
    public void close() {
        try {
            if (lines != null) {
                lines.close();
                lines = null;
            }
            if (body != null) {
                Files.deleteIfExists(body);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + body, e);
        }
    }
}
