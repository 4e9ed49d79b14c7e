package dev.patchgrade.core.launch;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Finds the file a command names and tells whether it can start, before anything is launched: a
 * missing file, a directory, a file without the execute bit and a file of no known executable
 * format (neither {@code #!} nor a binary) are "could not start", never an exit status. The last
 * matters because {@code execvp} and the JDK would run such a file through {@code /bin/sh}.
 */
public final class ExecutableCheck {
    private ExecutableCheck() {}

    /** The outcome: either a resolved path or the reason it cannot start. */
    public record Resolution(Path path, StartFailure failure) {
        public boolean ok() {
            return failure == null;
        }
    }

    public static Resolution resolve(String name, Path workingDirectory, Map<String, String> environment) {
        Path candidate;
        if (name.contains("/")) {
            Path given = Path.of(name);
            candidate = given.isAbsolute() || workingDirectory == null ? given.toAbsolutePath() : workingDirectory.resolve(given);
        } else {
            candidate = searchPath(name, environment.getOrDefault("PATH", ""), workingDirectory);
            if (candidate == null) {
                return new Resolution(null, new StartFailure(StartFailure.Kind.NOT_FOUND, name,
                        "no such command on the child's PATH"));
            }
        }
        return new Resolution(candidate, check(candidate, name));
    }

    /**
     * The first runnable {@code name} on {@code pathVariable}, found as execvp finds it in the child: an empty entry
     * is the working directory, a relative one lies under it (a wrapper that runs a bare name finds it so).
     */
    private static Path searchPath(String name, String pathVariable, Path workingDirectory) {
        for (String directory : pathVariable.split(":", -1)) {
            Path base = Path.of(directory.isEmpty() ? "." : directory);
            if (!base.isAbsolute()) {
                if (workingDirectory == null) {
                    continue;
                }
                base = workingDirectory.resolve(base).normalize();
            }
            Path file = base.resolve(name);
            if (Files.isRegularFile(file) && Files.isExecutable(file)) {
                return file;
            }
        }
        return null;
    }

    /** Files already found runnable, with the attributes they had then; a changed file is checked again. */
    private static final Map<Path, String> RUNNABLE = new java.util.concurrent.ConcurrentHashMap<>();

    static StartFailure check(Path file, String shownAs) {
        String identity = identity(file);
        if (identity != null && identity.equals(RUNNABLE.get(file))) {
            return null;
        }
        StartFailure failure = checkUncached(file, shownAs);
        if (failure == null && identity != null) {
            RUNNABLE.put(file, identity);
        }
        return failure;
    }

    private static String identity(Path file) {
        try {
            java.nio.file.attribute.BasicFileAttributes attributes = Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class);
            return attributes.isRegularFile() && Files.isExecutable(file)
                    ? attributes.fileKey() + "/" + attributes.size() + "/" + attributes.lastModifiedTime().toMillis() : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static StartFailure checkUncached(Path file, String shownAs) {
        if (!Files.exists(file)) {
            return new StartFailure(StartFailure.Kind.NOT_FOUND, shownAs, "no file at " + file);
        }
        if (Files.isDirectory(file)) {
            return new StartFailure(StartFailure.Kind.NOT_EXECUTABLE, shownAs, "it is a directory");
        }
        if (!Files.isExecutable(file)) {
            return new StartFailure(StartFailure.Kind.NOT_EXECUTABLE, shownAs, "the execute bit is not set");
        }
        byte[] magic = new byte[4];
        int read;
        try (InputStream in = Files.newInputStream(file)) {
            read = in.readNBytes(magic, 0, 4);
        } catch (IOException e) {
            return new StartFailure(StartFailure.Kind.NOT_EXECUTABLE, shownAs, "cannot be read: " + e.getMessage());
        }
        if (!knownFormat(magic, read)) {
            return new StartFailure(StartFailure.Kind.BAD_FORMAT, shownAs,
                    "no #! line and not a binary; it is not run through /bin/sh");
        }
        return null;
    }

    static boolean knownFormat(byte[] magic, int length) {
        if (length >= 2 && magic[0] == '#' && magic[1] == '!') {
            return true;
        }
        if (length < 4) {
            return false;
        }
        int word = ((magic[0] & 0xff) << 24) | ((magic[1] & 0xff) << 16) | ((magic[2] & 0xff) << 8) | (magic[3] & 0xff);
        return word == 0x7f454c46 // ELF
                || word == 0xfeedface || word == 0xfeedfacf // Mach-O, big-endian read
                || word == 0xcefaedfe || word == 0xcffaedfe // Mach-O, little-endian read
                || word == 0xcafebabe; // Mach-O universal
    }
}
