package dev.patchgrade.core.launch;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.host.BoundedCommand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Compiles the launch helper with the system C compiler into its {@link HelperCache} directory. Each
 * attempt compiles to its own temporary folder and moves the result into place, so no two threads or
 * processes ever write or run one another's files; the caller holds the locks.
 */
final class HelperBuild {
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Each compiler's target, asked once per JVM: every launcher a build opens would otherwise start the compiler again. */
    private static final Map<String, String> MACHINES = new ConcurrentHashMap<>();

    /**
     * What every build of the helper is compiled with; a static link is tried first (see {@link #compile}). Warnings
     * on, and fortified string and memory calls (undefined first: some distributions' compilers define their own
     * level, and a second definition is itself a warning). No -Werror here: a user's newer compiler that adds a
     * warning must not leave the plugin without its launcher. The project's own tests compile with -Werror
     * (HelperWarningsTest), so a warning of the compilers it is built with fails its build instead.
     */
    static final List<String> FLAGS = List.of("-O2", "-Wall", "-Wextra", "-U_FORTIFY_SOURCE", "-D_FORTIFY_SOURCE=2");
    /** What of the build's shape the cache directory is keyed on, beside the sources and the target. */
    static final String FLAGS_KEY = String.join(" ", FLAGS) + " static-first";

    private HelperBuild() {}

    /** {@code $CC}, else the first of cc, gcc and clang on the PATH, or {@code null} when there is none. */
    static String findCompiler() {
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

    /** The compiler's target ({@code x86_64-linux-gnu}), which the helper's cache directory is keyed on. */
    static String machine(String compiler, Duration timeout) throws IOException {
        String machine = MACHINES.get(compiler);
        if (machine == null) {
            machine = BoundedCommand.output(List.of(compiler, "-dumpmachine"), null, timeout).strip();
            MACHINES.put(compiler, machine);
        }
        return machine;
    }

    /** Under the locks: another thread or process may have built it meanwhile. */
    static NativeHelper.Located buildIfUnfit(GradeLog log, String compiler, Map<String, byte[]> sources, Path directory, Path binary,
            Duration timeout)
            throws IOException {
        String unfit = HelperCache.unfit(directory, binary);
        if (unfit == null) {
            return new NativeHelper.Located(binary, null);
        }
        if (!unfit.equals(HelperCache.NOT_BUILT)) {
            log.debug("not using the launch helper " + binary + ": " + unfit + "; rebuilding it");
        }
        HelperCache.takeBack(directory);
        // Each attempt in its own folder, the sources under their real names (they are recorded in the binary, and
        // the .c files include the header by name), so no two threads or processes ever write or run one another's files.
        Path work = directory.resolve(".build-" + ProcessHandle.current().pid() + "-" + HexFormat.of().formatHex(randomBytes()));
        List<Path> sourceFiles = new ArrayList<>();
        Path building = work.resolve(HelperCache.BINARY_NAME);
        Path digestFile = work.resolve(HelperCache.DIGEST_NAME);
        try {
            Files.createDirectory(work);
            for (Map.Entry<String, byte[]> source : sources.entrySet()) {
                Path file = work.resolve(source.getKey());
                sourceFiles.add(file);
                Files.write(file, source.getValue());
            }
            compile(log, compiler, units(sourceFiles), building, directory, timeout);
            Files.setPosixFilePermissions(building, HelperCache.RWX_R_X);
            Files.write(digestFile, (HelperCache.sha256(building) + "\n").getBytes(StandardCharsets.US_ASCII));
            Files.setPosixFilePermissions(digestFile, HelperCache.RW_R);
            // A link or anything else in the way goes first: a rename over a link replaces the link, never its target.
            Files.deleteIfExists(binary);
            move(digestFile, directory.resolve(HelperCache.DIGEST_NAME));
            move(building, binary);
        } finally {
            for (Path file : sourceFiles) {
                Files.deleteIfExists(file);
            }
            Files.deleteIfExists(building);
            Files.deleteIfExists(digestFile);
            Files.deleteIfExists(work);
        }
        String after = HelperCache.unfit(directory, binary);
        if (after != null) {
            return new NativeHelper.Located(null, "the launch helper built in " + directory + " does not verify: " + after);
        }
        log.debug("built the launch helper at " + binary);
        return new NativeHelper.Located(binary, null);
    }

    /** The files the compiler is given: the .c files (the header comes in through their #include). */
    static List<String> units(List<Path> sourceFiles) {
        return sourceFiles.stream().map(Path::toString).filter(name -> name.endsWith(".c")).toList();
    }

    private static void compile(GradeLog log, String compiler, List<String> units, Path building, Path directory, Duration timeout)
            throws IOException {
        try {
            // Static, so the helper's own high-water mark (which every child inherits at exec)
            // stays below even /bin/true's RSS; a dynamic glibc would add about 450 KB.
            BoundedCommand.output(command(compiler, List.of("-static"), building, units), directory, timeout);
        } catch (IOException noStaticLibc) {
            log.debug("static link of the launch helper failed, linking dynamically: " + noStaticLibc.getMessage());
            try {
                BoundedCommand.output(command(compiler, List.of(), building, units), directory, timeout);
            } catch (IOException e) {
                throw new IOException("the C compiler " + compiler + " could not build it: " + e.getMessage(), e);
            }
        }
    }

    private static List<String> command(String compiler, List<String> link, Path building, List<String> units) {
        List<String> command = new ArrayList<>(List.of(compiler));
        command.addAll(FLAGS);
        command.addAll(link);
        command.addAll(List.of("-o", building.toString()));
        command.addAll(units);
        return command;
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static byte[] randomBytes() {
        byte[] bytes = new byte[6];
        RANDOM.nextBytes(bytes);
        return bytes;
    }
}
