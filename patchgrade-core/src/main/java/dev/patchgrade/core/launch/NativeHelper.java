package dev.patchgrade.core.launch;

import dev.patchgrade.core.GradeLog;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Builds the launch helper from the C source shipped in this jar with the system C compiler, once
 * per source version and target machine, into a user cache directory. Users grading C/C++ have a
 * compiler; where there is none, {@link #locate} says why and the launcher degrades.
 */
public final class NativeHelper {
    static final String SOURCE_RESOURCE = "pg-launch-helper.c";
    static final String BINARY_NAME = "pg-launch-helper";

    private NativeHelper() {}

    /** The built helper, or a reason it could not be had. */
    public record Located(Path binary, String problem) {}

    public static Located locate(GradeLog log) {
        byte[] source;
        try (InputStream in = NativeHelper.class.getResourceAsStream(SOURCE_RESOURCE)) {
            if (in == null) {
                return new Located(null, "the helper source is missing from the patchgrade-core jar");
            }
            source = in.readAllBytes();
        } catch (IOException e) {
            return new Located(null, "cannot read the helper source: " + e.getMessage());
        }
        String compiler = findCompiler();
        if (compiler == null) {
            return new Located(null, "no C compiler found (set CC, or install cc/gcc/clang)");
        }
        String machine;
        try {
            machine = runForOutput(List.of(compiler, "-dumpmachine"), null).strip();
        } catch (IOException e) {
            return new Located(null, compiler + " -dumpmachine failed: " + e.getMessage());
        }
        String key = StreamHashing.sha256Hex(concat(source, (machine + "\nstatic-first").getBytes(StandardCharsets.UTF_8))).substring(0, 16);
        Path directory = cacheRoot().resolve("helper-" + key);
        Path binary = directory.resolve(BINARY_NAME);
        if (Files.isExecutable(binary)) {
            return new Located(binary, null);
        }
        try {
            Files.createDirectories(directory);
            Path sourceFile = Files.createTempFile(directory, "src-", ".c");
            Path building = directory.resolve(BINARY_NAME + ".tmp-" + ProcessHandle.current().pid());
            try {
                Files.write(sourceFile, source);
                try {
                    // Static, so the helper's own high-water mark (which every child inherits at exec)
                    // stays below even /bin/true's RSS; a dynamic glibc would add about 450 KB.
                    runForOutput(List.of(compiler, "-O2", "-static", "-o", building.toString(), sourceFile.toString()), directory);
                } catch (IOException noStaticLibc) {
                    log.debug("static link of the launch helper failed, linking dynamically: " + noStaticLibc.getMessage());
                    runForOutput(List.of(compiler, "-O2", "-o", building.toString(), sourceFile.toString()), directory);
                }
                try {
                    Files.move(building, binary, StandardCopyOption.ATOMIC_MOVE);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(building, binary, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(sourceFile);
                Files.deleteIfExists(building);
            }
            log.debug("built the launch helper at " + binary);
            return new Located(binary, null);
        } catch (IOException e) {
            return new Located(null, "cannot build the launch helper in " + directory + ": " + e.getMessage());
        }
    }

    /** {@code -Dpatchgrade.cacheDir}, {@code PATCHGRADE_CACHE}, else the platform's user cache directory. */
    public static Path cacheRoot() {
        String configured = System.getProperty("patchgrade.cacheDir", System.getenv("PATCHGRADE_CACHE"));
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
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

    private static String runForOutput(List<String> command, Path directory) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        if (directory != null) {
            builder.directory(directory.toFile());
        }
        Process process = builder.start();
        byte[] output = process.getInputStream().readAllBytes();
        try {
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not finish in 120 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IOException("interrupted", e);
        }
        String text = new String(output, StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " exited " + process.exitValue() + ": " + text.strip());
        }
        return text;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = new byte[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
