package dev.patchgrade.core.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/** The machine-readable side of every report: pretty JSON, written atomically. */
public final class JsonReports {
    public static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private JsonReports() {}

    public static void write(Object report, Path file) {
        try {
            byte[] bytes = MAPPER.writeValueAsBytes(report);
            byte[] withNewline = new byte[bytes.length + 1];
            System.arraycopy(bytes, 0, withNewline, 0, bytes.length);
            withNewline[bytes.length] = '\n';
            AtomicFiles.write(file, withNewline);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the JSON report " + file, e);
        }
    }
}
