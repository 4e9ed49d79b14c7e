package dev.patchgrade.core.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;

/**
 * A goal's JSON report, written as its cases finish: each row is serialised by Jackson onto a body
 * beside the report and forgotten; {@link #finish} writes the head (a record: goal, verdict, counts,
 * ...) and then the rows as the array {@code arrayName}. One schema for every goal: the README's
 * "JSON reports" section.
 */
public final class JsonReportWriter implements AutoCloseable {
    private static final ObjectWriter ROWS = JsonReports.MAPPER.writer().without(SerializationFeature.FLUSH_AFTER_WRITE_VALUE);

    private final Path file;
    private final String arrayName;
    private final BodyFile body;
    private final JsonGenerator rows;

    /** @param arrayName the key of the rows ({@code cases}, {@code rows}), or {@code null} for a report without rows */
    public JsonReportWriter(Path file, String arrayName) {
        this.file = file;
        this.arrayName = arrayName;
        if (arrayName == null) {
            this.body = null;
            this.rows = null;
            return;
        }
        this.body = new BodyFile(file);
        try {
            this.rows = JsonReports.MAPPER.getFactory().createGenerator(body.stream());
            rows.useDefaultPrettyPrinter();
            rows.writeStartArray();
        } catch (IOException e) {
            body.close();
            throw new UncheckedIOException("cannot start the JSON report " + file, e);
        }
    }

    public void add(Object row) {
        try {
            ROWS.writeValue(rows, row);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the JSON report " + file, e);
        }
    }

    /** Writes the report, the fields of {@code head} first, atomically in place of any older one. */
    public void finish(Object head) {
        try {
            if (rows != null) {
                rows.writeEndArray();
                rows.flush();
            }
            AtomicFiles.write(file, out -> {
                JsonGenerator json = JsonReports.MAPPER.getFactory().createGenerator(out);
                json.useDefaultPrettyPrinter();
                json.writeStartObject();
                JsonNode fields = head instanceof JsonNode tree ? tree : JsonReports.MAPPER.valueToTree(head);
                for (Iterator<Map.Entry<String, JsonNode>> it = fields.fields(); it.hasNext();) {
                    Map.Entry<String, JsonNode> field = it.next();
                    json.writeFieldName(field.getKey());
                    JsonReports.MAPPER.writeTree(json, field.getValue());
                }
                if (body != null) {
                    json.writeFieldName(arrayName);
                    // The rows are already JSON: the separator goes through the generator, the rows straight to the file.
                    json.writeRawValue("");
                    json.flush();
                    body.copyTo(out);
                }
                json.writeEndObject();
                json.writeRaw('\n');
                json.flush();
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the JSON report " + file, e);
        } finally {
            close();
        }
    }

    @Override
    public void close() {
        if (body != null) {
            body.close();
        }
    }
}
