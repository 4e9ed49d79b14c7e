package dev.patchgrade.core.launch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The files behind one run: the child writes its streams straight into files (so a grandchild that
 * keeps stdout open cannot block anyone, and RLIMIT_FSIZE caps them), and they are hashed after exit.
 */
final class RunFiles {
    final Path stdin;
    final Path stdout;
    final Path stderr;
    private final boolean keep;

    private RunFiles(Path stdin, Path stdout, Path stderr, boolean keep) {
        this.stdin = stdin;
        this.stdout = stdout;
        this.stderr = stderr;
        this.keep = keep;
    }

    static RunFiles create(Path scratch, long runNumber, LaunchRequest request) {
        try {
            Path stdin = null;
            if (request.stdin() != null) {
                stdin = scratch.resolve("run-" + runNumber + ".stdin");
                Files.write(stdin, request.stdin());
            }
            Path prefix = request.keepOutputAs();
            if (prefix != null) {
                Path parent = prefix.toAbsolutePath().getParent();
                if (parent != null) {
                    Files.createDirectories(parent);
                }
                return new RunFiles(stdin, sibling(prefix, ".stdout"), sibling(prefix, ".stderr"), true);
            }
            return new RunFiles(stdin, scratch.resolve("run-" + runNumber + ".stdout"),
                    scratch.resolve("run-" + runNumber + ".stderr"), false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the run's files in " + scratch, e);
        }
    }

    private static Path sibling(Path prefix, String suffix) {
        return prefix.resolveSibling(prefix.getFileName() + suffix).toAbsolutePath();
    }

    LaunchResult finish(LaunchRequest request, Integer exitCode, String signal, Integer signalNumber, boolean timedOut, Usage usage,
            long wallMicros) {
        try {
            ensureExists(stdout);
            ensureExists(stderr);
            StreamDigest out = StreamHashing.digestFile(stdout, StreamHashing.DEFAULT_EXCERPT_BYTES, keep);
            StreamDigest err = StreamHashing.digestFile(stderr, StreamHashing.DEFAULT_EXCERPT_BYTES, keep);
            long cap = request.outputLimitBytes();
            boolean limited = "SIGXFSZ".equals(signal) || out.bytes() >= cap || err.bytes() >= cap;
            return new LaunchResult(null, exitCode, signal, signalNumber, timedOut, limited, usage, wallMicros, out, err);
        } finally {
            discard();
        }
    }

    void discard() {
        try {
            if (stdin != null) {
                Files.deleteIfExists(stdin);
            }
            if (!keep) {
                Files.deleteIfExists(stdout);
                Files.deleteIfExists(stderr);
            }
        } catch (IOException e) {
            // A scratch file we cannot delete is removed with the scratch directory on close.
        }
    }

    private static void ensureExists(Path file) {
        try {
            if (!Files.exists(file)) {
                Files.createFile(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
