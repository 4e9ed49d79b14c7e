package dev.patchgrade.core.grade;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Paths as written into committed files: relative to the project where they lie inside it, so any checkout can use them. */
public final class ProjectPaths {
    private ProjectPaths() {}

    public static String portable(Path file, Path projectDirectory) {
        if (projectDirectory != null && file.isAbsolute()) {
            Path base = projectDirectory.toAbsolutePath().normalize();
            Path normalized = file.normalize();
            if (normalized.startsWith(base)) {
                return base.relativize(normalized).toString();
            }
        }
        return file.toString();
    }

    /** The command as committed: every absolute path inside the project is written relative to it, so the file works in any checkout. */
    public static List<String> portableCommand(List<String> command, Path projectDirectory) {
        List<String> portable = new ArrayList<>();
        for (String part : command) {
            boolean path = part.startsWith("/") && part.indexOf('\0') < 0;
            String written = path ? portable(Path.of(part), projectDirectory) : part;
            portable.add(written.isEmpty() ? "." : written);
        }
        return portable;
    }
}
