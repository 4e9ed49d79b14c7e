package dev.patchgrade.core.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * How one graded case (one command, for an envelope) ended: what every reporter needs, whatever the goal.
 *
 * @param name the case id, or the command for an envelope
 * @param status what the case came to
 * @param type the reason, pattern or error name for a failure or error
 * @param message one line with the numbers
 * @param details the body of the failure or error: every detail, and where the full streams are
 * @param keptFiles the full output streams kept for people to look at (none for a case that passed, unless keepAll)
 */
public record CaseOutcome(
        String name, double seconds, Status status, String type, String message, String details,
        String systemOut, String systemErr, List<Path> keptFiles) {

    public enum Status { PASSED, FAILED, ERROR, SKIPPED }

    public CaseOutcome {
        keptFiles = keptFiles == null ? List.of() : List.copyOf(keptFiles);
    }

    public CaseOutcome(String name, double seconds, Status status, String type, String message, String details,
            String systemOut, String systemErr) {
        this(name, seconds, status, type, message, details, systemOut, systemErr, List.of());
    }

    public static CaseOutcome passed(String name, double seconds, String systemOut, String systemErr) {
        return new CaseOutcome(name, seconds, Status.PASSED, null, null, null, systemOut, systemErr);
    }

    public static CaseOutcome failed(String name, double seconds, String type, String message, String details,
            String systemOut, String systemErr) {
        return new CaseOutcome(name, seconds, Status.FAILED, type, message, details, systemOut, systemErr);
    }

    public static CaseOutcome error(String name, String type, String message, String details) {
        return new CaseOutcome(name, 0, Status.ERROR, type, message, details, null, null);
    }

    public CaseOutcome keeping(List<Path> files) {
        return new CaseOutcome(name, seconds, status, type, message, details, systemOut, systemErr, files);
    }

    public boolean passed() {
        return status == Status.PASSED;
    }

    /** Deletes the stream files of a case nobody needs to look at, as soon as its outcome is known. */
    public static void delete(List<Path> files) {
        for (Path file : files) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot delete the stream file " + file, e);
            }
        }
    }
}
