package dev.patchgrade.core;

/**
 * Where core code reports what a person should see. The Maven plugin adapts its {@code Log} to this,
 * so no Maven type reaches the core.
 */
public interface GradeLog {
    void info(String message);

    void warn(String message);

    void debug(String message);

    /** Whether the person asked for every row ({@code -Dpatchgrade.verbose}), not only the failing ones. */
    default boolean verbose() {
        return false;
    }

    /** Drops everything; for callers that only want the returned values. */
    GradeLog SILENT = new GradeLog() {
        @Override
        public void info(String message) {}

        @Override
        public void warn(String message) {}

        @Override
        public void debug(String message) {}
    };
}
