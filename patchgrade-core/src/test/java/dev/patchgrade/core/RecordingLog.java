package dev.patchgrade.core;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A log that keeps the warnings a goal gave, and every line it gave at any level, for tests to read. */
public final class RecordingLog implements GradeLog {
    public final List<String> warnings = new CopyOnWriteArrayList<>();
    public final List<String> lines = new CopyOnWriteArrayList<>();

    @Override
    public void info(String message) {
        lines.add(message);
    }

    @Override
    public void warn(String message) {
        warnings.add(message);
        lines.add(message);
    }

    @Override
    public void debug(String message) {
        lines.add(message);
    }
}
