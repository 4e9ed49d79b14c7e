package dev.patchgrade.core.launch;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * A launcher's scratch directory, locked while in use. It lives in memory ({@code /dev/shm}) where that is
 * a tmpfs with room to spare, else in {@code java.io.tmpdir}; {@code -Dpatchgrade.scratch=DIR} chooses.
 * Every run's output files are new inodes, created and dropped once a run: on a disk file system that
 * churn costs more than the launch itself (ext4 without a journal scans past every recently deleted
 * inode to create the next one), on tmpfs next to nothing. Maven stopped by Ctrl-C or SIGTERM closes
 * every open launcher from a shutdown hook (killing its helpers and children); a JVM killed outright
 * leaves its directory behind, unlocked, and the next launcher opened on the machine removes it.
 */
final class Scratch {
    static final String PREFIX = "patchgrade-launch-";
    /** The directory scratch directories are made in, instead of choosing one. */
    public static final String BASE_PROPERTY = Setting.SCRATCH.property();
    private static final Path MEMORY = Path.of("/dev/shm");
    /** Below this much free memory file system, a candidate's output could fill it and fail where a disk would not. */
    private static final long MEMORY_ROOM = 2L << 30;
    private static final String LOCK = ".lock";
    /** Directories the sandbox mounts anew for each run. */
    /** A directory being made: no sweep looks at it, and none is left, unless the JVM died within those few calls. */
    private static final String CREATING = ".patchgrade-creating-";
    static final Set<Launcher> OPEN = ConcurrentHashMap.newKeySet();
    /**
     * This JVM's own directories: never opened by the sweep, because closing any descriptor of a file
     * drops every POSIX lock this process holds on it, and another JVM would then sweep a live directory.
     */
    private static final Set<Path> OWN = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            for (Launcher launcher : OPEN) {
                try {
                    launcher.close();
                } catch (RuntimeException e) {
                    // the JVM is going: close what can be closed
                }
            }
        }, "patchgrade-launch-shutdown"));
    }

    private final Path directory;
    private final FileChannel lockChannel;
    private final FileLock lock;

    private Scratch(Path directory, FileChannel lockChannel, FileLock lock) {
        this.directory = directory;
        this.lockChannel = lockChannel;
        this.lock = lock;
    }

    static Scratch create() {
        Path base = base();
        sweepAbandoned(base);
        try {
            // Locked before it takes a name the sweep looks at: another JVM's sweep between the lock file's creation
            // and its lock found it free and deleted a live launcher's directory (a helper's pid file went missing).
            Path unnamed = Files.createTempDirectory(base, CREATING);
            FileChannel channel = FileChannel.open(unnamed.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = channel.lock();
            Path directory = base.resolve(PREFIX + unnamed.getFileName().toString().substring(CREATING.length()));
            OWN.add(directory.toAbsolutePath());
            try {
                Files.move(unnamed, directory, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                OWN.remove(directory.toAbsolutePath());
                lock.release();
                channel.close();
                deleteTree(unnamed);
                throw e;
            }
            return new Scratch(directory, channel, lock);
        } catch (IOException e) {
            String problem = e.getMessage();
            // The property is the JVM's, read by every launcher: the build tool says how its JVM is given one.
            throw new PatchgradeException(ErrorName.WRITE_FAILED, shown -> "cannot create a scratch directory for child output in " + base
                    + " (point " + shown.setting(Setting.SCRATCH) + " at a writable directory, e.g. " + shown.forTheJvm(Setting.SCRATCH.is("..."))
                    + "): " + problem, e);
        }
    }

    /** Where scratch directories are made: see the class comment. */
    static Path base() {
        String configured = System.getProperty(BASE_PROPERTY, "");
        if (!configured.isBlank()) {
            return Path.of(configured);
        }
        try {
            if (Files.isDirectory(MEMORY) && Files.isWritable(MEMORY)) {
                FileStore store = Files.getFileStore(MEMORY);
                if ("tmpfs".equals(store.type()) && store.getUsableSpace() >= MEMORY_ROOM) {
                    return MEMORY;
                }
            }
        } catch (IOException e) {
            // no usable memory file system: the temp directory then
        }
        return Path.of(System.getProperty("java.io.tmpdir"));
    }

    Path directory() {
        return directory;
    }

    /**
     * {@code spec} with every launcher's scratch hidden, not only {@code own}: in three-column grading the
     * reference runs through a launcher of its own, beside the candidate's, and a candidate must not read the
     * reference's output from its scratch while it runs. A scratch the view does not show is out of sight
     * anyway; one inside a shown directory (the project under {@code java.io.tmpdir}) is hidden there.
     */
    static SandboxSpec hiddenFrom(SandboxSpec spec, Path own) {
        Path base = own.toAbsolutePath().getParent();
        List<Path> scratches = new ArrayList<>(List.of(own));
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(base, PREFIX + "*")) {
            entries.forEach(scratches::add);
        } catch (IOException e) {
            // the base could not be listed: its scratches are as visible as before, ours is hidden
        }
        // The base itself where it holds nothing a run is shown: then not even the scratches' names are listed.
        Path realBase = Path.of(Objects.requireNonNullElse(SandboxSpec.realPath(base), base.toString()));
        List<Path> given = new ArrayList<>(spec.shown());
        given.addAll(spec.writable());
        if (given.stream().map(SandboxSpec::realPath).filter(Objects::nonNull).noneMatch(path -> Path.of(path).startsWith(realBase))) {
            scratches.add(base);
        }
        return spec.hidingAlso(scratches);
    }

    void delete() {
        try {
            lock.release();
            lockChannel.close();
        } catch (IOException e) {
            // the directory goes anyway
        }
        deleteTree(directory);
        OWN.remove(directory.toAbsolutePath());
    }

    /** Removes scratch directories whose launcher is gone: their lock is free. */
    static int sweepAbandoned(Path temp) {
        int removed = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(temp, PREFIX + "*")) {
            for (Path entry : entries) {
                Path lockFile = entry.resolve(LOCK);
                if (OWN.contains(entry.toAbsolutePath()) || !Files.isDirectory(entry, java.nio.file.LinkOption.NOFOLLOW_LINKS) || !Files.isRegularFile(lockFile)) {
                    continue;
                }
                try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE)) {
                    FileLock held = channel.tryLock();
                    if (held == null) {
                        continue;
                    }
                    held.release();
                } catch (OverlappingFileLockException | IOException e) {
                    continue; // this JVM's own, or not ours to touch
                }
                deleteTree(entry);
                removed++;
            }
        } catch (IOException e) {
            // an unreadable temp directory only means nothing is swept
        }
        return removed;
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException | java.io.UncheckedIOException e) {
            // Another JVM's sweep may be deleting it too (once its lock is released); one left behind is swept later.
        }
    }
}
