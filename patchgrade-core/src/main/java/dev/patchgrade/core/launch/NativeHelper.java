package dev.patchgrade.core.launch;

import dev.patchgrade.core.CrossProcessLock;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.Suggestions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The launch helper, built from the C sources shipped in this jar with the system C compiler, once per
 * source version and target machine, into a user cache directory. Users grading C/C++ have a compiler;
 * where there is none, {@link #locate} says why and the launcher degrades.
 *
 * <p>The build is safe across the threads of one JVM ({@code mvn -T 2}) and across processes: it runs
 * under a JVM-wide lock and a file lock, and the cache is checked again once the locks are held.
 * {@link HelperCache} says whether a cached helper may run; {@link HelperBuild} compiles a new one.
 */
public final class NativeHelper {
    /** The helper's C sources and their shared header, shipped as resources beside this class; compiled together. */
    static final List<String> SOURCES = List.of("pg-helper.h", "pg-main.c", "pg-protocol.c", "pg-spawn.c", "pg-seccomp.c", "pg-cgroup.c",
            "pg-account.c", "pg-perfclock.c", "pg-sockdiag.c", "pg-unixgc.c", "pg-netns.c", "pg-mount.c", "pg-zygote.c", "pg-serve.c", "pg-init.c", "pg-util.c");
    static final Duration COMPILE_TIMEOUT = Duration.ofSeconds(120);

    private NativeHelper() {}

    /** The built helper, or a reason it could not be had. */
    public record Located(Path binary, String problem) {}

    /** @param shown how a problem names the setting that fixes it */
    public static Located locate(GradeLog log, Suggestions shown) {
        return locate(log, cacheRoot(), HelperBuild.findCompiler(), COMPILE_TIMEOUT, shown);
    }

    /**
     * @param compiler the C compiler to build with, or {@code null} when none was found
     * @param compileTimeout how long one compiler command may take before it is killed
     */
    static Located locate(GradeLog log, Path configuredCacheRoot, String compiler, Duration compileTimeout, Suggestions shown) {
        // Absolute: the compiler runs in the helper's directory, where a relative path would mean something else.
        Path cacheRoot = configuredCacheRoot.toAbsolutePath().normalize();
        Map<String, byte[]> sources = new LinkedHashMap<>();
        for (String name : SOURCES) {
            try (InputStream in = NativeHelper.class.getResourceAsStream(name)) {
                if (in == null) {
                    return new Located(null, "the helper source " + name + " is missing from the patchgrade-core jar");
                }
                sources.put(name, in.readAllBytes());
            } catch (IOException e) {
                return new Located(null, "cannot read the helper source " + name + ": " + e.getMessage());
            }
        }
        if (compiler == null) {
            return new Located(null, "no C compiler found (set CC, or install cc/gcc/clang)");
        }
        String machine;
        try {
            machine = HelperBuild.machine(compiler, compileTimeout);
        } catch (IOException e) {
            return new Located(null, "the C compiler " + compiler + " does not work: " + e.getMessage());
        }
        Path directory = HelperCache.directory(cacheRoot, sources, machine);
        Path binary = directory.resolve(HelperCache.BINARY_NAME);
        if (HelperCache.unfit(directory, binary) == null) {
            return new Located(binary, null);
        }
        String cacheProblem = HelperCache.problem(cacheRoot, shown);
        if (cacheProblem != null) {
            return new Located(null, cacheProblem);
        }
        try {
            boolean existed = Files.exists(directory, LinkOption.NOFOLLOW_LINKS);
            Files.createDirectories(directory);
            if (!existed) {
                Files.setPosixFilePermissions(directory, HelperCache.RWX_R_X);
            }
            return CrossProcessLock.holding(directory.resolve(HelperCache.LOCK_NAME), compileTimeout.multipliedBy(2),
                    () -> HelperBuild.buildIfUnfit(log, compiler, sources, directory, binary, compileTimeout));
        } catch (AccessDeniedException e) {
            return new Located(null, "the cache directory " + cacheRoot + " is not writable (" + e.getFile() + "): " + HelperCache.writable(shown));
        } catch (IOException e) {
            return new Located(null, "cannot build the launch helper in " + directory + ": " + e.getMessage());
        }
    }

    /** Where built helpers are kept; the sandbox hides it from the children. See {@link HelperCache#root}. */
    public static Path cacheRoot() {
        return HelperCache.root();
    }
}
