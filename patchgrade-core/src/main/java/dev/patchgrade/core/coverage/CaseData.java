package dev.patchgrade.core.coverage;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.PatchgradeException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The coverage data one case's runs wrote. Every process of the case's tree writes its {@code .gcda} under the
 * case's own directory ({@code GCOV_PREFIX}) at its object's absolute path ({@code GCOV_PREFIX_STRIP=0}), so each
 * data file says which object it belongs to and its notes ({@code .gcno}) are found beside that object, wherever
 * the build put it: no object directory to configure, and the objects of many directories (a CMake build's) work
 * alike.
 *
 * <p>The case's directory was writable by the candidate; it is read without following links, and gcov reads copies
 * in a tree of patchgrade's own, each beside a link to its object's notes.
 */
final class CaseData {
    static final String DATA = ".gcda";
    static final String NOTES = ".gcno";

    private CaseData() {}

    /**
     * One data file.
     *
     * @param written where the run wrote it, in the case's directory
     * @param object the data file the binary names (the object's path with {@code .gcda}), which locates its notes
     */
    record Found(Path written, Path object) {
        Path notes() {
            String name = object.getFileName().toString();
            return object.resolveSibling(name.substring(0, name.length() - DATA.length()) + NOTES);
        }
    }

    /** The regular {@code .gcda} files under {@code caseDirectory}, links not followed, in path order. */
    static List<Found> collect(Path caseDirectory) {
        List<Found> found = new ArrayList<>();
        if (!Files.isDirectory(caseDirectory, LinkOption.NOFOLLOW_LINKS)) {
            return found;
        }
        try {
            Files.walkFileTree(caseDirectory, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                    if (attributes.isRegularFile() && file.getFileName().toString().endsWith(DATA)) {
                        found.add(new Found(file, Path.of("/").resolve(caseDirectory.relativize(file))));
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE; // made unreadable by the run: nothing of ours
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the coverage data in " + caseDirectory, e);
        }
        found.sort(Comparator.comparing(Found::object));
        return found;
    }

    /**
     * Lays the data files out for gcov under {@code tree}, each at its object's path with a link to the object's
     * notes beside it, and gives the copies. A data file whose notes are gone is error {@code no_coverage_data}.
     */
    static List<Path> layOut(List<Found> found, Path tree) {
        List<Path> copies = new ArrayList<>();
        for (Found data : found) {
            Path notes = data.notes();
            if (!Files.isRegularFile(notes)) {
                throw new PatchgradeException(ErrorName.NO_COVERAGE_DATA, "the coverage build's runs wrote " + data.object() + " but its notes "
                        + notes + " are not there: gcov needs the .gcno files the compiler writes beside the objects. Keep them (do not "
                        + "clean the objects away after linking), and rebuild the coverage build if they were removed");
            }
            Path copy = tree.resolve(Path.of("/").relativize(data.object()));
            try {
                Files.createDirectories(copy.getParent());
                Files.copy(data.written(), copy, StandardCopyOption.REPLACE_EXISTING, LinkOption.NOFOLLOW_LINKS);
                Path link = copy.resolveSibling(notes.getFileName());
                Files.deleteIfExists(link);
                Files.createSymbolicLink(link, notes);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot lay out the coverage data of " + data.object() + " under " + tree, e);
            }
            copies.add(copy);
        }
        return copies;
    }

    /**
     * Deletes a directory and what is in it. Links are removed, never followed, and a directory a run made
     * unreadable is made readable again first: the runs wrote here, patchgrade cleans up.
     */
    static void delete(Path path) {
        try {
            if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
                return;
            }
            if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
                try {
                    Files.setPosixFilePermissions(path, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
                } catch (UnsupportedOperationException | IOException e) {
                    // not ours to change: the listing below says whether it matters
                }
                List<Path> children;
                try (Stream<Path> listing = Files.list(path)) {
                    children = listing.toList();
                }
                for (Path child : children) {
                    delete(child);
                }
            }
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + path, e);
        }
    }
}
