package dev.patchgrade.core.grade;

import dev.patchgrade.core.hashing.Sha256;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.PatchgradeException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitOption;
import java.nio.file.FileSystemLoopException;
import java.nio.file.FileVisitResult;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.EnumSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Fingerprints the oracle files (envelope, cases, gold directory, sidecar) before a grading run and
 * checks them after it: a candidate that rewrites an oracle while it runs must not grade itself green.
 */
public final class OracleGuard {
    private final Map<Path, String> before = new LinkedHashMap<>();
    /** Unknown outside this JVM, so nothing a grade launches can aim two directory entries at the same key. */
    private final byte[] salt = new byte[16];

    private OracleGuard() {
        new SecureRandom().nextBytes(salt);
    }

    public static OracleGuard snapshot(List<Path> oracles) {
        OracleGuard guard = new OracleGuard();
        for (Path oracle : oracles) {
            if (oracle != null) {
                guard.before.put(oracle, guard.fingerprint(oracle));
            }
        }
        return guard;
    }

    /** Throws {@code oracle_tampered} naming every oracle that changed. */
    public void verifyUnchanged() {
        StringBuilder changed = new StringBuilder();
        before.forEach((path, fingerprint) -> {
            String now = fingerprint(path);
            if (!now.equals(fingerprint)) {
                changed.append(changed.length() == 0 ? "" : "; ").append(path)
                        .append(" (sha256 ").append(shortHash(fingerprint)).append(" before, ").append(shortHash(now)).append(" after)");
            }
        });
        if (changed.length() > 0) {
            throw new PatchgradeException(ErrorName.ORACLE_TAMPERED, "oracle file changed while the goal ran: " + changed
                    + ". Grading goals never write oracle files, so something the grade launched did: restore the file from version control"
                    + " (git checkout -- <file>) and treat the candidate as hostile; no verdict from this run counts.");
        }
    }

    private static String shortHash(String hash) {
        return hash.length() > 12 ? hash.substring(0, 12) : hash;
    }

    String fingerprint(Path oracle) {
        try {
            if (!Files.exists(oracle)) {
                return "absent";
            }
            MessageDigest digest = Sha256.digest();
            // A symlinked gold directory (or links inside it) is fingerprinted where its files really are.
            Path real = oracle.toRealPath();
            if (Files.isDirectory(real)) {
                // Each entry becomes a salted 64-bit key, and the sorted keys are hashed: the same for the same entries
                // in any listing order, without the sorted list of 100,000 paths that lived long enough to be promoted
                // and stayed in the old generation for the grade (issue 15). A changed entry keeps its key by chance
                // only (1 in 2^64), as the salt cannot be known by what changes it.
                MessageDigest entry = Sha256.digest();
                Keys keys = new Keys();
                // The walk's own stat says which entries are files: one more (for the change time) per file, not two.
                Files.walkFileTree(real, EnumSet.of(FileVisitOption.FOLLOW_LINKS), Integer.MAX_VALUE, new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult preVisitDirectory(Path directory, BasicFileAttributes attributes) throws IOException {
                        startEntry(entry, real, directory);
                        updateDirectoryIdentity(entry, directory);
                        keys.add(ByteBuffer.wrap(entry.digest()).getLong());
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                        startEntry(entry, real, file);
                        if (attributes.isRegularFile()) {
                            updateByIdentity(entry, file);
                        }
                        keys.add(ByteBuffer.wrap(entry.digest()).getLong());
                        return FileVisitResult.CONTINUE;
                    }
                });
                keys.hashSorted(digest);
            } else {
                update(digest, real);
            }
            return Sha256.hex(digest.digest());
        } catch (FileSystemLoopException e) {
            throw new PatchgradeException(ErrorName.ORACLE_UNREADABLE, oracle + ": the symbolic link " + e.getFile()
                    + " leads back into a directory above it, so the oracle has no end to fingerprint; remove that link (an oracle"
                    + " directory holds files, and links to files)");
        } catch (IOException e) {
            throw new PatchgradeException(ErrorName.ORACLE_UNREADABLE, oracle + ": cannot be read to fingerprint it (" + e.getMessage()
                    + "); check its permissions, and that no other process holds it");
        }
    }

    /** An entry's digest starts with its salted path under the root; a regular file's identity follows. */
    private void startEntry(MessageDigest entry, Path root, Path path) {
        entry.update(salt);
        entry.update(root.relativize(path).toString().getBytes(StandardCharsets.UTF_8));
        entry.update((byte) 0);
    }

    /** The entries' keys, sorted when all are in: the same for the same entries in any listing order. */
    private static final class Keys {
        private long[] keys = new long[256];
        private int count;

        void add(long key) {
            if (count == keys.length) {
                keys = Arrays.copyOf(keys, count * 2);
            }
            keys[count++] = key;
        }

        void hashSorted(MessageDigest digest) {
            Arrays.sort(keys, 0, count);
            ByteBuffer key = ByteBuffer.allocate(Long.BYTES);
            for (int i = 0; i < count; i++) {
                digest.update(key.clear().putLong(keys[i]).array());
            }
        }
    }

    /**
     * A gold directory of many thousands of files is checked twice per grade, so its files are known by
     * inode, size, modification and change time instead of by content: no write, truncation or rename
     * leaves all four as they were, and the change time cannot be set back by any call a candidate
     * makes. Where the file system keeps whole seconds only, a rewrite within that second could match,
     * so such a file is read after all.
     */
    private static void updateByIdentity(MessageDigest digest, Path file) throws IOException {
        UnixIdentity identity = UnixIdentity.of(file);
        if (identity == null || identity.changed() % 1_000_000_000L == 0 || identity.modified() % 1_000_000_000L == 0) {
            update(digest, file);
            return;
        }
        digest.update(ByteBuffer.allocate(5 * Long.BYTES).putLong(identity.ino()).putLong(identity.dev()).putLong(identity.size())
                .putLong(identity.modified()).putLong(identity.changed()).array());
    }

    /**
     * A directory by inode and change time: an entry added, removed or renamed in it, or the directory itself
     * renamed, changes them. Without them, a gold directory moved aside for a forged copy while cases are graded
     * from their files, and moved back before the check, looked untouched (its files keep their stat data).
     */
    private static void updateDirectoryIdentity(MessageDigest digest, Path directory) throws IOException {
        UnixIdentity identity = UnixIdentity.of(directory);
        if (identity != null) {
            digest.update(ByteBuffer.allocate(3 * Long.BYTES).putLong(identity.ino()).putLong(identity.dev()).putLong(identity.changed()).array());
        }
    }

    /** What stat says of a file or directory; times in nanoseconds. */
    private record UnixIdentity(long ino, long dev, long size, long modified, long changed) {
        /** {@code null} where the file system has no unix view. */
        static UnixIdentity of(Path path) throws IOException {
            Map<String, Object> unix;
            try {
                unix = Files.readAttributes(path, "unix:ino,dev,size,lastModifiedTime,ctime");
            } catch (UnsupportedOperationException | IllegalArgumentException noUnixView) {
                return null;
            }
            return new UnixIdentity(((Number) unix.get("ino")).longValue(), ((Number) unix.get("dev")).longValue(),
                    ((Number) unix.get("size")).longValue(), ((FileTime) unix.get("lastModifiedTime")).to(TimeUnit.NANOSECONDS),
                    ((FileTime) unix.get("ctime")).to(TimeUnit.NANOSECONDS));
        }
    }

    private static void update(MessageDigest digest, Path file) throws IOException {
        byte[] block = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            int n;
            while ((n = in.read(block)) > 0) {
                digest.update(block, 0, n);
            }
        }
    }
}
