package dev.patchgrade.core.launch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A run's output files left in the launcher's scratch space for the caller (see
 * {@link LaunchRequest#holdingOutput()}): kept as files of their own or let go, once. Most runs of a
 * grade pass and their output is never looked at again, so it never becomes a file anywhere else.
 */
final class HeldOutput {
    private final Path stdout;
    private final Path stderr;
    private final Runnable free;
    private final AtomicBoolean done = new AtomicBoolean();

    HeldOutput(Path stdout, Path stderr, Runnable free) {
        this.stdout = stdout;
        this.stderr = stderr;
        this.free = free;
    }

    /** Copies the streams to {@code <prefix>.stdout} and {@code <prefix>.stderr} (replacing what is there, links included), then lets them go. */
    Path[] keepAs(Path prefix) {
        if (done.get()) {
            throw new IllegalStateException("the held output of this run was already kept or released");
        }
        Path out = sibling(prefix, ".stdout");
        Path err = sibling(prefix, ".stderr");
        try {
            Path parent = out.getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.copy(stdout, out, StandardCopyOption.REPLACE_EXISTING, LinkOption.NOFOLLOW_LINKS);
            Files.copy(stderr, err, StandardCopyOption.REPLACE_EXISTING, LinkOption.NOFOLLOW_LINKS);
            // A copy takes its source's mode: never a set-user-ID file in target/, where anyone could run it.
            RunFiles.plainMode(out);
            RunFiles.plainMode(err);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the run's output as " + out + " and " + err, e);
        } finally {
            release();
        }
        return new Path[] {out, err};
    }

    void release() {
        if (done.compareAndSet(false, true)) {
            free.run();
        }
    }

    static Path sibling(Path prefix, String suffix) {
        return prefix.resolveSibling(prefix.getFileName() + suffix).toAbsolutePath();
    }
}
