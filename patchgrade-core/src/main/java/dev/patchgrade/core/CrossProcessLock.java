package dev.patchgrade.core;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Mutual exclusion between the threads of this JVM and other processes, on one lock file. A file lock
 * alone is not enough: the JDK holds file locks per process, so two threads of one Maven build
 * ({@code -T 2}) would both get it. Every wait has a deadline.
 */
public final class CrossProcessLock {
    private static final ConcurrentHashMap<Path, ReentrantLock> IN_THIS_JVM = new ConcurrentHashMap<>();
    private static final long POLL_MILLIS = 50;

    private CrossProcessLock() {}

    /** Work done while holding the lock. */
    public interface Work<T> {
        T run() throws IOException;
    }

    /**
     * Runs {@code work} while holding {@code lockFile} (created if missing, never deleted).
     *
     * @throws IOException when the lock is not had within {@code deadline}, naming the file, or when {@code work} throws
     */
    public static <T> T holding(Path lockFile, Duration deadline, Work<T> work) throws IOException {
        Path key = lockFile.toAbsolutePath().normalize();
        ReentrantLock local = IN_THIS_JVM.computeIfAbsent(key, k -> new ReentrantLock());
        long end = System.nanoTime() + deadline.toNanos();
        try {
            if (!local.tryLock(deadline.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new IOException("another thread held " + key + " for more than " + deadline.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for " + key, e);
        }
        try {
            Files.createDirectories(key.getParent());
            try (FileChannel channel = FileChannel.open(key, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                FileLock acquired;
                while ((acquired = channel.tryLock()) == null) {
                    if (System.nanoTime() > end) {
                        throw new IOException("another process held " + key + " for more than " + deadline.toSeconds()
                                + " s; if no other build is running, delete that file");
                    }
                    try {
                        Thread.sleep(POLL_MILLIS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IOException("interrupted while waiting for " + key, e);
                    }
                }
                try (FileLock lock = acquired) {
                    return work.run();
                }
            }
        } finally {
            local.unlock();
        }
    }
}
