package dev.patchgrade.core.launch;

import dev.patchgrade.core.Setting;
import dev.patchgrade.core.Suggestions;
import dev.patchgrade.core.hashing.Sha256;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Set;

/**
 * Where the built launch helper is kept, and whether the copy there may be run. One directory per source
 * version and target machine; the binary's SHA-256 is recorded beside it, and before every use the binary
 * must still match it, be a regular file (not a link) owned by this user and writable by nobody else, in a
 * directory nobody else can write. {@link HelperBuild} replaces anything else.
 */
final class HelperCache {
    static final String BINARY_NAME = "pg-launch-helper";
    static final String DIGEST_NAME = BINARY_NAME + ".sha256";
    static final String LOCK_NAME = ".build.lock";
    /** What {@link #unfit} says of a helper that is simply not there: no reason to log a rebuild. */
    static final String NOT_BUILT = "not built yet";
    static final Set<PosixFilePermission> RWX_R_X = PosixFilePermissions.fromString("rwxr-xr-x");
    static final Set<PosixFilePermission> RW_R = PosixFilePermissions.fromString("rw-r--r--");

    private HelperCache() {}

    /**
     * {@code -Dpatchgrade.cacheDir}, {@code PATCHGRADE_CACHE}, else the platform's user cache directory;
     * always absolute (a relative setting is taken from where Maven runs), so the sandbox hides the right folder.
     */
    static Path root() {
        String configured = System.getProperty(Setting.CACHE_DIR.property(), System.getenv("PATCHGRADE_CACHE"));
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured).toAbsolutePath().normalize();
        }
        Path home = Path.of(System.getProperty("user.home"));
        if (System.getProperty("os.name", "").toLowerCase().contains("mac")) {
            return home.resolve("Library/Caches/patchgrade");
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        return (xdg != null && !xdg.isBlank() ? Path.of(xdg) : home.resolve(".cache")).resolve("patchgrade");
    }

    /**
     * The directory of the helper built from {@code sources} (file name to content) for {@code machine}: a change to
     * any file, its name, or the target is another helper. Each file is keyed by its name and length, so no two
     * sets of files can run together into the same bytes.
     */
    static Path directory(Path cacheRoot, Map<String, byte[]> sources, String machine) {
        java.security.MessageDigest digest = Sha256.digest();
        sources.forEach((name, content) -> {
            digest.update((name + "\n" + content.length + "\n").getBytes(StandardCharsets.UTF_8));
            digest.update(content);
        });
        digest.update((machine + "\n" + HelperBuild.FLAGS_KEY).getBytes(StandardCharsets.UTF_8));
        return cacheRoot.resolve("helper-" + Sha256.hex(digest.digest()).substring(0, 16));
    }

    /** Why the cached helper must not be run, or {@code null} when it may. */
    static String unfit(Path directory, Path binary) {
        try {
            PosixFileAttributes dir = Files.readAttributes(directory, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!dir.isDirectory()) {
                return directory + " is not a directory (a symbolic link?)";
            }
            String problem = ownedAndPrivate(directory, dir);
            if (problem != null) {
                return problem;
            }
            PosixFileAttributes file;
            try {
                file = Files.readAttributes(binary, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (NoSuchFileException e) {
                return NOT_BUILT;
            }
            if (file.isSymbolicLink()) {
                return "it is a symbolic link";
            }
            if (!file.isRegularFile()) {
                return "it is not a regular file";
            }
            problem = ownedAndPrivate(binary, file);
            if (problem != null) {
                return problem;
            }
            Path digestFile = directory.resolve(DIGEST_NAME);
            PosixFileAttributes digest;
            try {
                digest = Files.readAttributes(digestFile, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (NoSuchFileException e) {
                return "no SHA-256 was recorded for it in " + digestFile;
            }
            if (!digest.isRegularFile()) {
                return digestFile + " is not a regular file";
            }
            problem = ownedAndPrivate(digestFile, digest);
            if (problem != null) {
                return problem;
            }
            String recorded = Files.readString(digestFile, StandardCharsets.US_ASCII).strip();
            String actual = sha256(binary);
            return actual.equals(recorded) ? null : "its SHA-256 " + actual + " is not the recorded " + recorded + " (modified after it was built)";
        } catch (NoSuchFileException e) {
            return NOT_BUILT;
        } catch (IOException | UnsupportedOperationException e) {
            return "cannot check it: " + e;
        }
    }

    private static String ownedAndPrivate(Path path, PosixFileAttributes attributes) throws IOException {
        Object owner = Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        long uid = currentUid();
        if (uid >= 0 && owner instanceof Integer id && id != uid) {
            return path + " is owned by uid " + id + ", not by this user (uid " + uid + ")";
        }
        Set<PosixFilePermission> permissions = attributes.permissions();
        if (permissions.contains(PosixFilePermission.GROUP_WRITE) || permissions.contains(PosixFilePermission.OTHERS_WRITE)) {
            return path + " is writable by others (" + PosixFilePermissions.toString(permissions) + ")";
        }
        return null;
    }

    private static long currentUid() {
        try {
            return new com.sun.security.auth.module.UnixSystem().getUid();
        } catch (RuntimeException | LinkageError e) {
            return -1;
        }
    }

    /** Takes back a helper directory that others may write, or refuses one that is not a directory. */
    static void takeBack(Path directory) throws IOException {
        PosixFileAttributes attributes = Files.readAttributes(directory, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (!attributes.isDirectory()) {
            throw new IOException(directory + " is not a directory (a symbolic link?); delete it");
        }
        if (!attributes.permissions().equals(RWX_R_X)) {
            Files.setPosixFilePermissions(directory, RWX_R_X);
        }
    }

    /** Why nothing can be built under {@code cacheRoot}, named so the user can fix it, or {@code null}. */
    static String problem(Path cacheRoot, Suggestions shown) {
        Path existing = cacheRoot.toAbsolutePath();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null || !Files.isDirectory(existing) || !Files.isWritable(existing)) {
            return "the cache directory " + cacheRoot + " is not writable" + (existing == null ? "" : " (" + existing + ")")
                    + ": " + writable(shown);
        }
        if (MountOptions.noexec(existing)) {
            return "the cache directory " + cacheRoot + " is on a file system mounted noexec, so a helper built there cannot run: set "
                    + shown.setting(Setting.CACHE_DIR) + " or PATCHGRADE_CACHE to a directory on another file system";
        }
        return null;
    }

    /** How to give the helper a cache it can write. */
    static String writable(Suggestions shown) {
        return "set " + shown.setting(Setting.CACHE_DIR) + " or PATCHGRADE_CACHE to a writable directory";
    }

    static String sha256(Path file) throws IOException {
        java.security.MessageDigest digest = Sha256.digest();
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            byte[] buffer = new byte[64 * 1024];
            int n;
            while ((n = in.read(buffer)) > 0) {
                digest.update(buffer, 0, n);
            }
        }
        return Sha256.hex(digest.digest());
    }
}
