package dev.patchgrade.core.grade;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Copies of the oracles that the build does not name, found beside what it does: other checkouts of the same task
 * next to the project (a grading farm's {@code gen-1}, {@code gen-2}; red team 16 globbed
 * {@code ../*}{@code /src/test/patchgrade}), and an editor's or a merge's copies beside an oracle file
 * ({@code cases.jsonl.orig}, {@code .cases.jsonl.swp}, {@code cases.jsonl~}).
 */
public final class Neighbours {
    /** What makes a directory a checkout or a project: each holds every oracle of its own. */
    private static final List<String> CHECKOUT_MARKERS = List.of("pom.xml", ".git", ".hg", ".svn", ".jj", ".bzr", "_darcs", ".pijul", ".sl",
            ".fslckout", "_FOSSIL_", "build.gradle", "build.gradle.kts", "src/test/patchgrade", "CMakeLists.txt", "Makefile", "GNUmakefile",
            "meson.build", "configure.ac", "Cargo.toml", "package.json", "pyproject.toml", "setup.py", "go.mod", "WORKSPACE", "MODULE.bazel");
    /** Every run gets these anew: nothing beside the project there is visible to a run anyway. */
    private static final List<Path> FRESH = List.of(Path.of("/tmp"), Path.of("/dev/shm"));

    private Neighbours() {}

    /**
     * The checkouts beside {@code top} and beside each of its ancestors below the root: directories (or links to
     * them) holding a POM, a Gradle build, version-control metadata or {@code src/test/patchgrade}, except those
     * that hold something a run needs ({@code keep}: the project, the working directory, the programs it runs, the
     * paths the user shows or makes writable, the directories its environment names). Not inside the home
     * directory (hidden whole already), nor in {@code /tmp} or {@code /dev/shm}.
     *
     * @param top the top of the build: the reactor's root directory, holding every module
     */
    public static List<Path> checkoutsBeside(Path top, Collection<Path> keep, Path home) {
        if (top == null) {
            return List.of();
        }
        List<Path> kept = new ArrayList<>();
        for (Path path : keep) {
            if (path != null) {
                kept.add(real(path));
                kept.add(path.toAbsolutePath().normalize());
            }
        }
        Path homeDirectory = home == null ? null : real(home);
        Set<Path> found = new LinkedHashSet<>();
        Path child = real(top);
        for (Path parent = child.getParent(); parent != null && parent.getParent() != null; child = parent, parent = parent.getParent()) {
            if (FRESH.contains(parent) || homeDirectory != null && parent.startsWith(homeDirectory)) {
                continue;
            }
            try (Stream<Path> entries = Files.list(parent)) {
                for (Path entry : (Iterable<Path>) entries::iterator) {
                    if (!entry.equals(child) && Files.isDirectory(entry) && checkout(entry) && holdsNone(entry, kept)) {
                        found.add(entry);
                    }
                }
            } catch (IOException | RuntimeException e) {
                // an ancestor that cannot be listed shows the run nothing more than it shows Maven
            }
        }
        return List.copyOf(found);
    }

    /** The deepest directory holding every one of {@code directories} (the top of a reactor); null for none. */
    public static Path commonAncestor(Collection<Path> directories) {
        Path common = null;
        for (Path directory : directories) {
            if (directory == null) {
                continue;
            }
            Path absolute = directory.toAbsolutePath().normalize();
            if (common == null) {
                common = absolute;
            }
            while (common != null && !absolute.startsWith(common)) {
                common = common.getParent();
            }
        }
        return common;
    }

    /**
     * The files beside each oracle file whose name is the oracle's with a backup's or an editor's mark: {@code name.*},
     * {@code name~}, {@code .name.sw?}, {@code #name#}. Directories (a gold directory) are hidden whole already.
     */
    public static List<Path> copiesBeside(Collection<Path> oracles) {
        Set<Path> found = new LinkedHashSet<>();
        for (Path oracle : oracles) {
            if (oracle == null || !Files.isRegularFile(oracle, LinkOption.NOFOLLOW_LINKS) || oracle.getParent() == null) {
                continue;
            }
            String name = String.valueOf(oracle.getFileName());
            int dot = name.lastIndexOf('.');
            String stem = dot > 0 ? name.substring(0, dot) : name;
            String extension = dot > 0 ? name.substring(dot) : "";
            try (Stream<Path> entries = Files.list(oracle.getParent())) {
                for (Path entry : (Iterable<Path>) entries::iterator) {
                    String other = String.valueOf(entry.getFileName());
                    // name.orig, name~, .name.swp, #name#, and copies that keep the name's stem and extension
                    // (cases (1).jsonl, cases-old.jsonl, Copy of cases.jsonl: red team 19)
                    boolean copy = other.startsWith(name + ".") || other.equals(name + "~") || other.equals("#" + name + "#")
                            || other.startsWith("." + name + ".sw") || !extension.isEmpty() && stem.length() >= 3 && other.contains(stem)
                            && other.endsWith(extension);
                    if (!other.equals(name) && copy) {
                        found.add(entry);
                    }
                }
            } catch (IOException | RuntimeException e) {
                // unlistable: the oracle itself is hidden all the same
            }
        }
        return List.copyOf(found);
    }

    /** What marks a checkout one level down: few, since every directory beside the build's ancestors is looked into. */
    private static final List<String> NESTED_MARKERS = List.of("pom.xml", ".git", "src/test/patchgrade");

    /** A checkout, or a directory holding one among its first entries (a farm's gen-1/checkout: red team 19). */
    private static boolean checkout(Path directory) {
        if (marked(directory, CHECKOUT_MARKERS)) {
            return true;
        }
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.limit(64).anyMatch(entry -> Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS) && marked(entry, NESTED_MARKERS));
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static boolean marked(Path directory, List<String> markers) {
        for (String marker : markers) {
            if (Files.exists(directory.resolve(marker), LinkOption.NOFOLLOW_LINKS)) {
                return true;
            }
        }
        return false;
    }

    private static boolean holdsNone(Path directory, List<Path> kept) {
        Path real = real(directory);
        for (Path path : kept) {
            if (path.startsWith(real) || path.startsWith(directory.toAbsolutePath().normalize())) {
                return false;
            }
        }
        return true;
    }

    private static Path real(Path path) {
        return dev.patchgrade.core.classify.ReferenceFiles.real(path);
    }
}
