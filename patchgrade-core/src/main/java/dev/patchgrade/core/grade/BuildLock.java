package dev.patchgrade.core.grade;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.PatchgradeException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One build of a project grades at a time: two builds sharing {@code target/patchgrade} would mix
 * each other's streams and reports. The lock is the operating system's, so a killed build frees it.
 */
public final class BuildLock implements AutoCloseable {
    static final String FILE = ".build.lock";
    private final FileChannel channel;
    private final FileLock lock;

    private BuildLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes the lock of {@code outputDirectory}, or fails with {@code build_in_progress}. */
    public static BuildLock take(Path outputDirectory) {
        Path file = outputDirectory.resolve(FILE);
        FileChannel channel = null;
        try {
            Files.createDirectories(outputDirectory);
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock != null) {
                return new BuildLock(channel, lock);
            }
        } catch (OverlappingFileLockException e) {
            // held by this JVM: another execution of the same project is grading right now
        } catch (IOException e) {
            closeQuietly(channel);
            throw new PatchgradeException(ErrorName.WRITE_FAILED, "cannot create the lock file " + file + ": " + e.getMessage()
                    + "; check that the build directory is writable", e);
        }
        closeQuietly(channel);
        throw new PatchgradeException(ErrorName.BUILD_IN_PROGRESS, "another build of this project is grading right now (it holds " + file
                + "); two builds sharing one target directory would mix their runs and reports. Wait for it to finish, or build in a "
                + "separate checkout");
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // nothing held
            }
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            // closing the channel releases the lock either way
        }
    }
}
