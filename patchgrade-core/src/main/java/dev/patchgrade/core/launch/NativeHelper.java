package dev.patchgrade.core.launch;

import dev.patchgrade.core.grade.Setting;
import dev.patchgrade.core.grade.Suggestions;
import dev.patchgrade.core.hashing.Sha256;

import dev.patchgrade.core.CrossProcessLock;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.host.BoundedCommand;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds the launch helper from the C source shipped in this jar with the system C compiler, once
 * per source version and target machine, into a user cache directory. Users grading C/C++ have a
 * compiler; where there is none, {@link #locate} says why and the launcher degrades.
 *
 * <p>The build is safe across the threads of one JVM ({@code mvn -T 2}) and across processes: each
 * attempt compiles to its own temporary name, under a JVM-wide lock and a file lock, and the cache is
 * checked again once the locks are held. The built binary's SHA-256 is recorded beside it; before
 * every use the binary must still match it, be a regular file (not a link) owned by this user and
 * writable by nobody else, in a directory nobody else can write. Anything else is rebuilt.
 */
public final class NativeHelper {
    static final String SOURCE_RESOURCE = "pg-launch-helper.c";
    static final String BINARY_NAME = "pg-launch-helper";
    static final String DIGEST_NAME = BINARY_NAME + ".sha256";
    static final String LOCK_NAME = ".build.lock";
    static final Duration COMPILE_TIMEOUT = Duration.ofSeconds(120);
    private static final String NOT_BUILT = "not built yet";
    private static final Set<PosixFilePermission> RWX_R_X = PosixFilePermissions.fromString("rwxr-xr-x");
    private static final Set<PosixFilePermission> RW_R = PosixFilePermissions.fromString("rw-r--r--");
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Each compiler's target, asked once per JVM: every launcher a build opens would otherwise start the compiler again. */
    private static final java.util.Map<String, String> MACHINES = new java.util.concurrent.ConcurrentHashMap<>();

    private NativeHelper() {}

    /** The built helper, or a reason it could not be had. */
    public record Located(Path binary, String problem) {}

    /** @param shown how a problem names the setting that fixes it */
    public static Located locate(GradeLog log, Suggestions shown) {
        return locate(log, cacheRoot(), findCompiler(), COMPILE_TIMEOUT, shown);
    }

    /**
     * @param compiler the C compiler to build with, or {@code null} when none was found
     * @param compileTimeout how long one compiler command may take before it is killed
     */
    static Located locate(GradeLog log, Path configuredCacheRoot, String compiler, Duration compileTimeout, Suggestions shown) {
        // Absolute: the compiler runs in the helper's directory, where a relative path would mean something else.
        Path cacheRoot = configuredCacheRoot.toAbsolutePath().normalize();
        byte[] source;
        try (InputStream in = NativeHelper.class.getResourceAsStream(SOURCE_RESOURCE)) {
            if (in == null) {
                return new Located(null, "the helper source is missing from the patchgrade-core jar");
            }
            source = in.readAllBytes();
        } catch (IOException e) {
            return new Located(null, "cannot read the helper source: " + e.getMessage());
        }
        if (compiler == null) {
            return new Located(null, "no C compiler found (set CC, or install cc/gcc/clang)");
        }
        String machine = MACHINES.get(compiler);
        if (machine == null) {
            try {
                machine = BoundedCommand.output(List.of(compiler, "-dumpmachine"), null, compileTimeout).strip();
            } catch (IOException e) {
                return new Located(null, "the C compiler " + compiler + " does not work: " + e.getMessage());
            }
            MACHINES.put(compiler, machine);
        }
        String key = Sha256.of(concat(source, (machine + "\nstatic-first").getBytes(StandardCharsets.UTF_8))).substring(0, 16);
        Path directory = cacheRoot.resolve("helper-" + key);
        Path binary = directory.resolve(BINARY_NAME);
        if (unfit(directory, binary) == null) {
            return new Located(binary, null);
        }
        String cacheProblem = cacheProblem(cacheRoot, shown);
        if (cacheProblem != null) {
            return new Located(null, cacheProblem);
        }
        try {
            boolean existed = Files.exists(directory, LinkOption.NOFOLLOW_LINKS);
            Files.createDirectories(directory);
            if (!existed) {
                Files.setPosixFilePermissions(directory, RWX_R_X);
            }
            return CrossProcessLock.holding(directory.resolve(LOCK_NAME), compileTimeout.multipliedBy(2),
                    () -> buildIfUnfit(log, compiler, source, directory, binary, compileTimeout));
        } catch (AccessDeniedException e) {
            return new Located(null, "the cache directory " + cacheRoot + " is not writable (" + e.getFile() + "): " + writableCache(shown));
        } catch (IOException e) {
            return new Located(null, "cannot build the launch helper in " + directory + ": " + e.getMessage());
        }
    }

    /** Under the locks: another thread or process may have built it meanwhile. */
    private static Located buildIfUnfit(GradeLog log, String compiler, byte[] source, Path directory, Path binary, Duration timeout)
            throws IOException {
        String unfit = unfit(directory, binary);
        if (unfit == null) {
            return new Located(binary, null);
        }
        if (!unfit.equals(NOT_BUILT)) {
            log.debug("not using the launch helper " + binary + ": " + unfit + "; rebuilding it");
        }
        takeBack(directory);
        // Each attempt in its own folder, the source under its real name (it is recorded in the binary), so
        // no two threads or processes ever write or run one another's files.
        Path work = directory.resolve(".build-" + ProcessHandle.current().pid() + "-" + HexFormat.of().formatHex(randomBytes()));
        Path sourceFile = work.resolve(SOURCE_RESOURCE);
        Path building = work.resolve(BINARY_NAME);
        Path digestFile = work.resolve(DIGEST_NAME);
        try {
            Files.createDirectory(work);
            Files.write(sourceFile, source);
            try {
                // Static, so the helper's own high-water mark (which every child inherits at exec)
                // stays below even /bin/true's RSS; a dynamic glibc would add about 450 KB.
                BoundedCommand.output(List.of(compiler, "-O2", "-static", "-o", building.toString(), sourceFile.toString()), directory, timeout);
            } catch (IOException noStaticLibc) {
                log.debug("static link of the launch helper failed, linking dynamically: " + noStaticLibc.getMessage());
                try {
                    BoundedCommand.output(List.of(compiler, "-O2", "-o", building.toString(), sourceFile.toString()), directory, timeout);
                } catch (IOException e) {
                    throw new IOException("the C compiler " + compiler + " could not build it: " + e.getMessage(), e);
                }
            }
            Files.setPosixFilePermissions(building, RWX_R_X);
            Files.write(digestFile, (sha256(building) + "\n").getBytes(StandardCharsets.US_ASCII));
            Files.setPosixFilePermissions(digestFile, RW_R);
            // A link or anything else in the way goes first: a rename over a link replaces the link, never its target.
            Files.deleteIfExists(binary);
            move(digestFile, directory.resolve(DIGEST_NAME));
            move(building, binary);
        } finally {
            Files.deleteIfExists(sourceFile);
            Files.deleteIfExists(building);
            Files.deleteIfExists(digestFile);
            Files.deleteIfExists(work);
        }
        String after = unfit(directory, binary);
        if (after != null) {
            return new Located(null, "the launch helper built in " + directory + " does not verify: " + after);
        }
        log.debug("built the launch helper at " + binary);
        return new Located(binary, null);
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
    private static void takeBack(Path directory) throws IOException {
        PosixFileAttributes attributes = Files.readAttributes(directory, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (!attributes.isDirectory()) {
            throw new IOException(directory + " is not a directory (a symbolic link?); delete it");
        }
        if (!attributes.permissions().equals(RWX_R_X)) {
            Files.setPosixFilePermissions(directory, RWX_R_X);
        }
    }

    /** Why nothing can be built under {@code cacheRoot}, named so the user can fix it, or {@code null}. */
    static String cacheProblem(Path cacheRoot, Suggestions shown) {
        Path existing = cacheRoot.toAbsolutePath();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null || !Files.isDirectory(existing) || !Files.isWritable(existing)) {
            return "the cache directory " + cacheRoot + " is not writable" + (existing == null ? "" : " (" + existing + ")")
                    + ": " + writableCache(shown);
        }
        if (MountOptions.noexec(existing)) {
            return "the cache directory " + cacheRoot + " is on a file system mounted noexec, so a helper built there cannot run: set "
                    + shown.setting(Setting.CACHE_DIR) + " or PATCHGRADE_CACHE to a directory on another file system";
        }
        return null;
    }

    private static String writableCache(Suggestions shown) {
        return "set " + shown.setting(Setting.CACHE_DIR) + " or PATCHGRADE_CACHE to a writable directory";
    }

    /**
     * {@code -Dpatchgrade.cacheDir}, {@code PATCHGRADE_CACHE}, else the platform's user cache directory;
     * always absolute (a relative setting is taken from where Maven runs), so the sandbox hides the right folder.
     */
    public static Path cacheRoot() {
        String configured = System.getProperty("patchgrade.cacheDir", System.getenv("PATCHGRADE_CACHE"));
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

    private static String findCompiler() {
        List<String> names = new ArrayList<>();
        String cc = System.getenv("CC");
        if (cc != null && !cc.isBlank()) {
            names.add(cc.strip());
        }
        names.addAll(List.of("cc", "gcc", "clang"));
        for (String name : names) {
            ExecutableCheck.Resolution found = ExecutableCheck.resolve(name, null, Map.of("PATH", pathVariable()));
            if (found.ok()) {
                return found.path().toString();
            }
        }
        return null;
    }

    private static String pathVariable() {
        String path = System.getenv("PATH");
        return path == null ? "/usr/local/bin:/usr/bin:/bin" : path;
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static String sha256(Path file) throws IOException {
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

    private static byte[] randomBytes() {
        byte[] bytes = new byte[6];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = new byte[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
