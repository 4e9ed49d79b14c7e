package dev.patchgrade.core.launch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The files behind one run: the child writes its streams straight into files (so a grandchild that
 * keeps stdout open cannot block anyone, and RLIMIT_FSIZE caps them), and they are hashed after exit.
 */
final class RunFiles {
    final Path stdin;
    final Path stdout;
    final Path stderr;
    private final boolean keep;
    private final boolean reusedSlot;
    private final boolean hold;

    private RunFiles(Path stdin, Path stdout, Path stderr, boolean keep, boolean reusedSlot, boolean hold) {
        this.stdin = stdin;
        this.stdout = stdout;
        this.stderr = stderr;
        this.keep = keep;
        this.reusedSlot = reusedSlot;
        this.hold = hold;
    }

    /**
     * @param slot names the scratch files; a slot is used by one run at a time
     * @param reusedSlot the slot's next run replaces its output files, so they need not be deleted
     *     and created again (the helper's slots); otherwise they are deleted after hashing
     */
    static RunFiles create(Path scratch, String slot, LaunchRequest request, boolean reusedSlot) {
        try {
            Path stdin = null;
            if (request.stdin() != null) {
                stdin = scratch.resolve(slot + ".stdin");
                // A fresh file, never through a link: a helper running as another user can write the scratch
                // directory, and a run could leave a link here aimed at a file only the JVM's user may write.
                Files.deleteIfExists(stdin);
                Files.write(stdin, request.stdin(), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
            }
            Path prefix = request.keepOutputAs();
            if (prefix != null) {
                Path parent = prefix.toAbsolutePath().getParent();
                if (parent != null) {
                    Files.createDirectories(parent);
                }
                return new RunFiles(stdin, HeldOutput.sibling(prefix, ".stdout"), HeldOutput.sibling(prefix, ".stderr"), true, reusedSlot, false);
            }
            return new RunFiles(stdin, scratch.resolve(slot + ".stdout"), scratch.resolve(slot + ".stderr"), false, reusedSlot,
                    request.holdOutput());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the run's files in " + scratch, e);
        }
    }

    /**
     * Hashes the streams and builds the result.
     *
     * @param free what lets the files go when their output is held ({@link LaunchRequest#holdingOutput()}): it then
     *     runs when the caller keeps or releases the result, else it does not run at all
     */
    LaunchResult finish(LaunchRequest request, Integer exitCode, String signal, Integer signalNumber, boolean timedOut, Usage usage,
            long wallMicros, int leftovers, Runnable free) {
        return finish(request, exitCode, signal, signalNumber, timedOut, false, usage, wallMicros, leftovers, free);
    }

    /**
     * The same, for a launcher that stops the child itself once a stream reaches the cap.
     *
     * @param stoppedAtCap the launcher stopped the child because a stream reached {@link LaunchRequest#outputLimitBytes()}:
     *     the output was cut short whatever the files hold once the child is gone
     */
    LaunchResult finish(LaunchRequest request, Integer exitCode, String signal, Integer signalNumber, boolean timedOut, boolean stoppedAtCap,
            Usage usage, long wallMicros, int leftovers, Runnable free) {
        boolean held = false;
        try {
            // The run owned its output files and could change their mode: a kept stream made set-user-ID
            // would be left in target/ for anyone to run. Every process that held them is gone by now.
            plainMode(stdout);
            plainMode(stderr);
            beyondAnyCap(stdout, request.outputLimitBytes());
            beyondAnyCap(stderr, request.outputLimitBytes());
            StreamDigest out = StreamHashing.digestFile(stdout, StreamHashing.DEFAULT_EXCERPT_BYTES, keep || hold);
            StreamDigest err = StreamHashing.digestFile(stderr, StreamHashing.DEFAULT_EXCERPT_BYTES, keep || hold);
            long cap = request.outputLimitBytes();
            // SIGXFSZ is the kernel's word for it where RLIMIT_FSIZE caps the files (the helper).
            boolean limited = stoppedAtCap || "SIGXFSZ".equals(signal) || out.bytes() >= cap || err.bytes() >= cap;
            HeldOutput holding = hold ? new HeldOutput(stdout, stderr, () -> {
                deleteOutputs();
                free.run();
            }) : null;
            LaunchResult result = new LaunchResult(null, exitCode, signal, signalNumber, timedOut, limited, usage, wallMicros, out, err, leftovers,
                    holding);
            held = hold;
            return result;
        } finally {
            discardInput();
            if (!held) {
                deleteOutputs();
            }
        }
    }

    /**
     * A stream far larger than its cap was not written by writes, which the cap stops (fallocate's INSERT_RANGE made
     * one of 8 TB in a millisecond, holes read as zeros): an error, never hours of hashing.
     */
    private static void beyondAnyCap(Path file, long cap) {
        long size;
        try {
            size = Files.size(file);
        } catch (java.io.IOException e) {
            return;
        }
        if (cap > 0 && size > 2 * cap + (64L << 20)) {
            throw new dev.patchgrade.core.PatchgradeException(dev.patchgrade.core.ErrorName.OUTPUT_TAMPERED, "the child's output " + file
                    + " holds " + size + " bytes, far past the output cap of " + cap + " bytes that writing could reach, so it was not read. "
                    + "Treat the candidate as hostile, and run with sandbox=required");
        }
    }

    /** rw-r----- owned as it is: no set-user-ID, set-group-ID, sticky or execute bit a run may have set. */
    static void plainMode(Path file) {
        try {
            if (Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r-----"));
            }
        } catch (java.io.IOException | UnsupportedOperationException e) {
            // left as it is: hashing it then says what is wrong
        }
    }

    /** Whether the output stays after {@link #finish} until the result lets it go. */
    boolean holds() {
        return hold;
    }

    /** Drops what this run wrote to scratch; kept streams stay. */
    void discard() {
        discardInput();
        deleteOutputs();
    }

    private void discardInput() {
        try {
            if (stdin != null) {
                Files.deleteIfExists(stdin);
            }
        } catch (IOException e) {
            // A scratch file we cannot delete is removed with the scratch directory on close.
        }
    }

    /** A slot's next run replaces its files: only files of a slot used once go now. */
    private void deleteOutputs() {
        try {
            if (!keep && !reusedSlot) {
                Files.deleteIfExists(stdout);
                Files.deleteIfExists(stderr);
            }
        } catch (IOException e) {
            // A scratch file we cannot delete is removed with the scratch directory on close.
        }
    }
}
