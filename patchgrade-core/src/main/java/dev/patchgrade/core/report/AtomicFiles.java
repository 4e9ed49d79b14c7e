package dev.patchgrade.core.report;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Writes a file through a temporary sibling and a rename, so readers see the old file or the new one.
 * Files and folders get the modes the umask gives (typically {@code 0644} and {@code 0755}), unlike
 * the JDK's temporary files ({@code 0600}), so a web server or a container running as another user
 * can read the reports, envelopes, sidecars and gold digests.
 */
public final class AtomicFiles {
    private static final SecureRandom RANDOM = new SecureRandom();

    private AtomicFiles() {}

    /** What writes a file's content to a stream, for content too large to hold in memory. */
    @FunctionalInterface
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    public static void write(Path file, byte[] content) throws IOException {
        write(file, out -> out.write(content));
    }

    public static void write(Path file, Content content) throws IOException {
        Path target = file.toAbsolutePath();
        Files.createDirectories(target.getParent());
        Path temporary = null;
        try {
            temporary = temporaryWith(target, content);
            try {
                Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            if (temporary != null) {
                Files.deleteIfExists(temporary);
            }
        }
    }

    /** A new temporary sibling of {@code target}, of a name no one else holds, with {@code content} in it. */
    private static Path temporaryWith(Path target, Content content) throws IOException {
        while (true) {
            Path temporary = target.resolveSibling(uniqueName("." + target.getFileName(), ".tmp"));
            OutputStream out;
            try {
                out = Files.newOutputStream(temporary, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            } catch (FileAlreadyExistsException taken) {
                continue;
            }
            try (OutputStream stream = out) {
                content.writeTo(stream);
            } catch (IOException | RuntimeException e) {
                Files.deleteIfExists(temporary);
                throw e;
            }
            return temporary;
        }
    }

    /**
     * Writes a file that must not be there yet: through a temporary sibling and a hard link, which the kernel refuses
     * (atomically) where anything has the name, a dangling symbolic link included. Where the file system has no hard
     * links, a rename that Java refuses over an existing name.
     *
     * @throws FileAlreadyExistsException where something appeared at {@code file}; it is left as it was
     */
    public static void writeNew(Path file, byte[] content) throws IOException {
        Path target = file.toAbsolutePath();
        Files.createDirectories(target.getParent());
        Path temporary = null;
        try {
            temporary = temporaryWith(target, out -> out.write(content));
            try {
                Files.createLink(target, temporary);
            } catch (FileAlreadyExistsException taken) {
                throw taken;
            } catch (UnsupportedOperationException | java.nio.file.FileSystemException noLinks) {
                Files.move(temporary, target);
                temporary = null;
            }
        } finally {
            if (temporary != null) {
                Files.deleteIfExists(temporary);
            }
        }
    }

    /**
     * What is at {@code path}, as a recording goal's refusal names it, or {@code null} where nothing is. Links are
     * not followed: a symbolic link is something there, even one that points nowhere.
     *
     * @param emptyDirectoryIsFree where the output is a directory: an empty one holds nothing to lose
     */
    public static String occupant(Path path, boolean emptyDirectoryIsFree) throws IOException {
        if (Files.isSymbolicLink(path)) {
            Path to = Files.readSymbolicLink(path);
            return "a symbolic link to " + to + (Files.exists(path) ? "" : ", which does not exist");
        }
        if (!Files.exists(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        if (Files.isDirectory(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            long entries;
            try (java.util.stream.Stream<Path> list = Files.list(path)) {
                entries = list.count();
            }
            if (entries == 0) {
                return emptyDirectoryIsFree ? null : "an empty directory";
            }
            return "a directory of " + entries + " entr" + (entries == 1 ? "y" : "ies");
        }
        if (Files.isRegularFile(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return "a file of " + Files.size(path) + " bytes";
        }
        return "a special file";
    }

    /** A new, empty folder in {@code parent} named {@code prefix} plus a random part, with the umask's mode. */
    public static Path createDirectory(Path parent, String prefix) throws IOException {
        while (true) {
            try {
                return Files.createDirectory(parent.resolve(uniqueName(prefix, "")));
            } catch (FileAlreadyExistsException taken) {
                // try another name
            }
        }
    }

    private static String uniqueName(String prefix, String suffix) {
        byte[] bytes = new byte[8];
        RANDOM.nextBytes(bytes);
        return prefix + HexFormat.of().formatHex(bytes) + suffix;
    }
}
