package dev.patchgrade.core.digest;

import dev.patchgrade.core.launch.LaunchResult;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

/** The sanitizer verdict of one run, from the evidence the run left. */
public enum SanitizerClass {
    CLEAN("clean"), ASAN("asan"), UBSAN("ubsan"), TIMEOUT("timeout"), CRASH("crash"), UNAVAILABLE("unavailable");

    private final String wireName;

    SanitizerClass(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** The wire name: drifts and tables show the class as the gold file writes it. */
    @Override
    public String toString() {
        return wireName;
    }

    public static Optional<SanitizerClass> fromWire(String name) {
        return Arrays.stream(values()).filter(c -> c.wireName.equals(name)).findFirst();
    }

    /** Markers the sanitizer runtimes print; looked for only in sanitizer builds. */
    public record Markers(boolean ubsan, boolean asan) {
        public static final Markers NONE = new Markers(false, false);

        public static Markers scan(Path stderr) {
            boolean ubsan = false;
            boolean asan = false;
            try (BufferedReader reader = Files.newBufferedReader(stderr, StandardCharsets.ISO_8859_1)) {
                char[] buffer = new char[1 << 16];
                String carry = "";
                int n;
                while ((n = reader.read(buffer)) > 0) {
                    String chunk = carry + new String(buffer, 0, n);
                    ubsan |= chunk.contains("runtime error:") || chunk.contains("UndefinedBehaviorSanitizer");
                    asan |= chunk.contains("ERROR: AddressSanitizer") || chunk.contains("ERROR: LeakSanitizer");
                    carry = chunk.substring(Math.max(0, chunk.length() - 64));
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + stderr, e);
            }
            return new Markers(ubsan, asan);
        }
    }

    /**
     * Classifies one run: out of time, then a sanitizer report, then death by signal, else clean. A
     * sanitizer build that could not start is {@code unavailable}, which is never equal to clean.
     */
    public static SanitizerClass classify(LaunchResult result, Markers markers) {
        if (!result.started()) {
            return UNAVAILABLE;
        }
        if (result.timedOut()) {
            return TIMEOUT;
        }
        if (markers.asan()) {
            return ASAN;
        }
        if (markers.ubsan()) {
            return UBSAN;
        }
        if (result.signal() != null) {
            return CRASH;
        }
        return CLEAN;
    }
}
