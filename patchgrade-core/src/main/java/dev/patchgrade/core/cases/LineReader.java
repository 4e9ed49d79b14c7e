package dev.patchgrade.core.cases;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The lines of a cases file, split at LF only (a CR before it stays on the line), a byte order mark at the
 * start dropped; the last line only if it holds something.
 */
final class LineReader implements AutoCloseable {
    private final Reader in;
    private final char[] buffer = new char[1 << 13];
    private final StringBuilder line = new StringBuilder();
    private int position;
    private int limit;
    private int number;
    private boolean start = true;

    private LineReader(Reader in) {
        this.in = in;
    }

    static LineReader open(Path file) throws IOException {
        return new LineReader(reader(file));
    }

    static Reader reader(Path file) throws IOException {
        return new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT));
    }

    /** The next line, or {@code null} after the last. */
    String next() throws IOException {
        line.setLength(0);
        while (true) {
            if (position == limit) {
                limit = in.read(buffer);
                position = 0;
                if (limit <= 0) {
                    limit = 0;
                    if (line.length() == 0) {
                        return null;
                    }
                    number++;
                    return line.toString();
                }
                if (start && buffer[0] == '\uFEFF') {
                    position = 1;
                }
                start = false;
            }
            int from = position;
            while (position < limit && buffer[position] != '\n') {
                position++;
            }
            line.append(buffer, from, position - from);
            if (position < limit) {
                position++;
                number++;
                return line.toString();
            }
        }
    }

    /** The line {@link #next} gave last, counted from 1. */
    int number() {
        return number;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
