package dev.patchgrade.core.grade;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The version-control metadata above a directory: hidden from every run, since a repository holds every
 * committed oracle again ({@code git show HEAD:gold/...}) however well the oracle files themselves are hidden.
 */
final class RepositoryMetadata {
    private static final List<String> NAMES = List.of(".git", ".hg", ".svn", ".jj", ".bzr", "_darcs", ".pijul", ".sl", ".fslckout",
            "_FOSSIL_");

    private RepositoryMetadata() {}

    /**
     * Each {@code .git}, {@code .hg}, {@code .svn}, {@code .jj}, {@code .bzr}, {@code _darcs} or {@code .pijul} from
     * {@code directory} up to the root, fossil's checkout database, and for a {@code .git} file (a worktree or
     * submodule) the git directory it names and that directory's common directory.
     */
    static List<Path> above(Path directory) {
        List<Path> found = new ArrayList<>();
        for (Path at = directory == null ? null : directory.toAbsolutePath().normalize(); at != null; at = at.getParent()) {
            for (String name : NAMES) {
                Path metadata = at.resolve(name);
                if (Files.isDirectory(metadata) || (name.contains("FOSSIL") || name.equals(".fslckout")) && Files.isRegularFile(metadata)) {
                    found.add(metadata);
                    if (name.equals(".git")) {
                        found.addAll(alternates(metadata));
                    }
                } else if (name.equals(".git") && Files.isRegularFile(metadata)) {
                    found.add(metadata);
                    Path gitDir = pointedTo(at, metadata, "gitdir:");
                    if (gitDir != null) {
                        found.add(gitDir);
                        found.addAll(alternates(gitDir));
                        Path common = pointedTo(gitDir, gitDir.resolve("commondir"), "");
                        if (common != null) {
                            found.add(common);
                            found.addAll(alternates(common));
                        }
                    }
                }
            }
        }
        return found;
    }

    /**
     * The object stores a git directory borrows from ({@code objects/info/alternates}, as a reference clone has):
     * they hold every commit's oracles again.
     */
    private static List<Path> alternates(Path gitDirectory) {
        List<Path> stores = new ArrayList<>();
        Path objects = gitDirectory.resolve("objects");
        try {
            for (String line : Files.readAllLines(objects.resolve("info/alternates"))) {
                String entry = line.strip();
                if (!entry.isEmpty() && !entry.startsWith("#")) {
                    Path store = objects.resolve(entry).normalize();
                    if (Files.isDirectory(store)) {
                        stores.add(store);
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // no alternates file, or one that cannot be read: no borrowed store to hide
        }
        return stores;
    }

    private static Path pointedTo(Path base, Path file, String prefix) {
        try {
            String text = Files.readString(file).strip();
            if (!text.startsWith(prefix)) {
                return null;
            }
            Path target = base.resolve(text.substring(prefix.length()).strip()).normalize();
            return Files.isDirectory(target) ? target : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
