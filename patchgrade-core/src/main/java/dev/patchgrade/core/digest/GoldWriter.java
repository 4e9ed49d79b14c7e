package dev.patchgrade.core.digest;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.report.AtomicFiles;
import dev.patchgrade.core.report.JsonReports;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;

/**
 * Writes a new gold directory one case at a time, into a sibling that {@link #commit} swaps in for
 * {@code directory}; closed without a commit, the sibling goes and the old directory stays as it was.
 * {@link #write} may be called from several threads, each for another case.
 */
public final class GoldWriter implements AutoCloseable {
    /**
     * Replaces {@code directory} with exactly these digests. They are written to a sibling first and
     * swapped in at the end, so a failure leaves the old directory as it was and no stale file survives.
     */
    public static void replace(Path directory, List<DigestTuple> tuples, String toolchain, List<NormalizeRule> normalize) {
        replace(directory, tuples, toolchain, normalize, Map.of());
    }

    /** @param excerpts by case id; cases without an entry are written without excerpts */
    public static void replace(Path directory, List<DigestTuple> tuples, String toolchain, List<NormalizeRule> normalize,
            Map<String, StreamExcerpts> excerpts) {
        try (GoldWriter writer = GoldWriter.open(directory, toolchain, normalize)) {
            for (DigestTuple tuple : tuples) {
                writer.write(tuple, excerpts.get(tuple.caseId()));
            }
            writer.commit();
        }
    }

    private final Path target;
    private final Path fresh;
    private final String toolchain;
    private final List<NormalizeRule> normalize;
    private final TimeBasis timeBasis;

    private GoldWriter(Path target, Path fresh, String toolchain, List<NormalizeRule> normalize, TimeBasis timeBasis) {
        this.target = target;
        this.fresh = fresh;
        this.toolchain = toolchain;
        this.normalize = normalize;
        this.timeBasis = timeBasis;
    }

    public static GoldWriter open(Path directory, String toolchain, List<NormalizeRule> normalize) {
        return open(directory, toolchain, normalize, null);
    }

    /** @param timeBasis what the recorded times measure, written in every file that has a time; {@code null} to write none */
    public static GoldWriter open(Path directory, String toolchain, List<NormalizeRule> normalize, TimeBasis timeBasis) {
        Path target = directory.toAbsolutePath().normalize();
        Path parent = target.getParent();
        try {
            Files.createDirectories(parent);
            return new GoldWriter(target, AtomicFiles.createDirectory(parent, "." + target.getFileName() + ".new-"), toolchain, normalize,
                    timeBasis);
        } catch (IOException e) {
            throw failed(target, e);
        }
    }

    /** @param excerpts the case's normalised stream excerpts, or {@code null} to write none */
    public void write(DigestTuple tuple, StreamExcerpts excerpts) {
        try {
            Files.write(fresh.resolve(SafeNames.jsonFile(tuple.caseId())),
                    (JsonReports.MAPPER.writeValueAsString(GoldFile.json(tuple, toolchain, normalize, excerpts, timeBasis)) + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw failed(target, e);
        }
    }

    /** Swaps the written digests in for the old directory, which goes: no stale file survives. */
    public void commit() {
        commit(true);
    }

    /**
     * Moves the written digests to the directory's place.
     *
     * @param replace whether whatever is there goes (a forced recording); else only an empty directory may be there, and
     *     anything else is left as it is
     * @return false where {@code replace} is off and something is there: nothing was moved (then {@link #close} removes
     *     what was written)
     */
    public boolean commit(boolean replace) {
        Path parent = target.getParent();
        if (!replace) {
            try {
                if (Files.isDirectory(target, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    // Fails for a directory that holds anything: the kernel checks, so nothing added meanwhile is lost.
                    Files.delete(target);
                }
                Files.move(fresh, target);
                return true;
            } catch (java.nio.file.DirectoryNotEmptyException | java.nio.file.FileAlreadyExistsException taken) {
                return false;
            } catch (IOException e) {
                throw failed(target, e);
            }
        }
        try {
            Path old = null;
            if (Files.exists(target)) {
                old = parent.resolve("." + target.getFileName() + ".old-" + System.nanoTime());
                Files.move(target, old, StandardCopyOption.ATOMIC_MOVE);
            }
            Files.move(fresh, target, StandardCopyOption.ATOMIC_MOVE);
            if (old != null) {
                GoldStore.deleteTree(old);
            }
            return true;
        } catch (IOException e) {
            throw failed(target, e);
        }
    }

    /** Without a commit, removes what was written. */
    @Override
    public void close() {
        try {
            if (Files.exists(fresh)) {
                GoldStore.deleteTree(fresh);
            }
        } catch (IOException e) {
            throw failed(target, e);
        }
    }

    private static PatchgradeException failed(Path target, IOException e) {
        return new PatchgradeException(ErrorName.WRITE_FAILED, "cannot write the digest directory " + target + ": " + e.getMessage(), e);
    }
}
