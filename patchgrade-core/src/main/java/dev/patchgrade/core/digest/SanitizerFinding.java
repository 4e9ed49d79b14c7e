package dev.patchgrade.core.digest;

import dev.patchgrade.core.report.FirstDifference;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * What a sanitizer report says, in one line: its error and where. A report's first line is a banner of
 * {@code =} signs and its second names a process id, so the first differing line of stderr tells a
 * person nothing; the runtime's own {@code runtime error:} or {@code SUMMARY:} line and the first frame do.
 */
final class SanitizerFinding {
    /** How far into stderr a report is looked for: a sanitizer stops the program at its first report. */
    private static final int MOST_LINES = 20_000;
    private static final int WIDTH = 200;
    private static final Pattern PROCESS = Pattern.compile("^==\\d+==\\s*");
    private static final Pattern FIRST_FRAME = Pattern.compile("^\\s*#0\\s");
    private static final Pattern ADDRESS = Pattern.compile("^#0 0x[0-9a-fA-F]+ in ");

    private SanitizerFinding() {}

    /**
     * "sanitizer: SUMMARY: AddressSanitizer: heap-buffer-overflow value.cpp:12 in main; first frame: #0 in main value.cpp:12",
     * or {@code null} where stderr holds no sanitizer report.
     */
    static String of(Path stderr) {
        if (stderr == null) {
            return null;
        }
        String runtimeError = null;
        String summary = null;
        String error = null;
        String frame = null;
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(Files.newInputStream(stderr), StandardCharsets.UTF_8))) {
            String line;
            for (int i = 0; i < MOST_LINES && (line = reader.readLine()) != null; i++) {
                if (runtimeError == null && line.contains("runtime error:")) {
                    runtimeError = line;
                } else if (summary == null && line.startsWith("SUMMARY: ") && line.contains("Sanitizer")) {
                    summary = line;
                } else if (error == null && line.matches("^(==\\d+==)?\\s*ERROR: \\w*Sanitizer.*")) {
                    error = line;
                } else if (frame == null && FIRST_FRAME.matcher(line).find()) {
                    frame = line;
                }
                if (summary != null && frame != null) {
                    break;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + stderr, e);
        }
        String headline = runtimeError != null ? runtimeError : summary != null ? summary : error;
        if (headline == null) {
            return null;
        }
        String text = "sanitizer: " + cut(PROCESS.matcher(headline).replaceFirst(""));
        return frame == null ? text : text + "; first frame: " + cut(ADDRESS.matcher(frame.strip()).replaceFirst("#0 in "));
    }

    private static String cut(String line) {
        String escaped = FirstDifference.escape(line.strip());
        return escaped.length() > WIDTH ? escaped.substring(0, WIDTH) + "..." : escaped;
    }
}
