package dev.patchgrade.core.grade;

import java.nio.file.Path;

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
}
