package dev.patchgrade.core.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What a launcher's children may see, as an allow-list: the view holds the system trees, {@code shown}
 * read-only and {@code writable} writable, each run's own empty {@code /tmp} and {@code /dev/shm}, a minimal
 * {@code /dev} and its own {@code /proc}. Nothing else of the host exists in it. Inside what is shown,
 * {@code hidden} is hidden (an empty directory or file), whatever shows it.
 *
 * @param shown files and directories shown read-only (the program, its libraries, what its command names, the
 *     working directory, {@code readOnlyPaths})
 * @param writable the user's {@code writablePaths}
 * @param hidden what stays hidden inside what is shown (oracle files, reports, scratch, version-control metadata,
 *     {@code hiddenPaths}, a reference's home while a candidate runs)
 */
public record SandboxSpec(Mode mode, List<Path> shown, List<Path> writable, List<Path> hidden) {
    /** The system, shown to every run: what the distribution installs programs and their configuration in. */
    public static final List<Path> SYSTEM = List.of(Path.of("/usr"), Path.of("/bin"), Path.of("/sbin"), Path.of("/lib"), Path.of("/lib32"),
            Path.of("/lib64"), Path.of("/libx32"), Path.of("/etc"));
    /** What the view makes itself: a host path under one of these is never bound in (the host's /proc/self would be the JVM's). */
    private static final List<Path> MADE_BY_THE_VIEW = List.of(Path.of("/proc"), Path.of("/dev"));
    private static final int MOST_LINKS = 40;
    /** The most paths the launch helper binds, links or hides in one view (its table holds 4,096). */
    public static final int MOST_OPERATIONS = 4000;

    /** {@code sandbox} = {@code auto} | {@code required} | {@code off}. */
    public enum Mode {
        AUTO, REQUIRED, OFF;

        /** The mode named by a POM value; {@code null} for an unknown name. */
        public static Mode parse(String value) {
            if (value == null || value.isBlank()) {
                return AUTO;
            }
            for (Mode mode : values()) {
                if (mode.name().equalsIgnoreCase(value.strip())) {
                    return mode;
                }
            }
            return null;
        }

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public SandboxSpec {
        shown = List.copyOf(shown);
        writable = List.copyOf(writable);
        hidden = List.copyOf(hidden);
    }

    /** No sandbox: tests of launch mechanics, and {@code sandbox=off}. */
    public static SandboxSpec off() {
        return new SandboxSpec(Mode.OFF, List.of(), List.of(), List.of());
    }

    /** Mode only: the view holds the system and nothing else. */
    public static SandboxSpec of(Mode mode) {
        return new SandboxSpec(mode, List.of(), List.of(), List.of());
    }

    public SandboxSpec withMode(Mode newMode) {
        return new SandboxSpec(newMode, shown, writable, hidden);
    }

    /** The same view with more hidden in it (the launcher's scratch). */
    public SandboxSpec hidingAlso(List<Path> more) {
        List<Path> all = new ArrayList<>(hidden);
        all.addAll(more);
        return new SandboxSpec(mode, shown, writable, all);
    }

    /** The same view with more writable. */
    public SandboxSpec writingAlso(List<Path> more) {
        List<Path> all = new ArrayList<>(writable);
        all.addAll(more);
        return new SandboxSpec(mode, shown, all, hidden);
    }

    /** The same view showing more, read-only. */
    public SandboxSpec showingAlso(List<Path> more) {
        List<Path> all = new ArrayList<>(shown);
        all.addAll(more);
        return new SandboxSpec(mode, all, writable, hidden);
    }

    /** True where {@code path} (as it is on the host, links followed) lies in what this view binds in. */
    public boolean holds(Path path) {
        String real = realPath(path);
        if (real == null) {
            return false;
        }
        Path file = Path.of(real);
        List<Path> all = new ArrayList<>(SYSTEM);
        all.addAll(shown);
        all.addAll(writable);
        for (Path each : all) {
            String area = realPath(each);
            if (area != null && file.startsWith(area)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The helper's arguments, in the order it applies them: read-only binds, writable binds, the symbolic links on
     * the way to them, the hides, then the writable paths that lie inside a hidden one. Each path is bound at its real location; each link met on the way to it
     * is made again in the view, so the path works as it was written. A path inside another bound directory is
     * not bound again, and absent paths are left out.
     */
    public List<String> helperArguments() {
        Map<Path, String> links = new LinkedHashMap<>();
        List<Path> readOnly = new ArrayList<>();
        for (Path path : SYSTEM) {
            Path real = reach(path, links);
            if (real != null) {
                readOnly.add(real);
            }
        }
        for (Path path : shown) {
            Path real = reach(path, links);
            if (real != null) {
                readOnly.add(real);
            }
        }
        List<Path> rw = new ArrayList<>();
        for (Path path : writable) {
            Path real = reach(path, links);
            if (real != null) {
                rw.add(real);
            }
        }
        List<Path> binds = outermost(readOnly);
        List<Path> realHidden = hidden.stream().map(SandboxSpec::realPath).filter(java.util.Objects::nonNull).map(Path::of).toList();
        // A writable path inside a hidden one (a goal's scratch under target/patchgrade) is bound after the hides: the one way in.
        List<Path> throughHidden = outermost(rw.stream().filter(path -> realHidden.stream().anyMatch(path::startsWith)).toList());
        List<Path> writableBinds = outermost(rw.stream().filter(path -> !throughHidden.contains(path)
                && realHidden.stream().noneMatch(path::startsWith)).toList());
        List<String> args = new ArrayList<>();
        for (Path path : binds) {
            args.add("--ro");
            args.add(path.toString());
        }
        for (Path path : writableBinds) {
            args.add("--rw");
            args.add(path.toString());
        }
        List<Path> all = new ArrayList<>(binds);
        all.addAll(writableBinds);
        links.forEach((link, target) -> {
            if (all.stream().noneMatch(link::startsWith)) {
                args.add("--link");
                args.add(link.toString());
                args.add(target);
            }
        });
        Set<String> seen = new LinkedHashSet<>();
        for (Path path : hidden) {
            String real = realPath(path);
            if (real != null && !real.equals("/") && all.stream().anyMatch(Path.of(real)::startsWith) && seen.add(real)) {
                args.add("--hide");
                args.add(real);
            }
        }
        for (Path path : throughHidden) {
            args.add("--rw");
            args.add(path.toString());
        }
        return args;
    }

    /** How many binds, links and hides the view takes: at most {@link #MOST_OPERATIONS}. */
    public int operations() {
        return (int) helperArguments().stream().filter(word -> word.startsWith("--")).count();
    }

    /** The paths without those inside another one of them, parents first. */
    private static List<Path> outermost(List<Path> paths) {
        List<Path> sorted = new ArrayList<>(new LinkedHashSet<>(paths));
        sorted.sort(Comparator.comparingInt(Path::getNameCount).thenComparing(Path::toString));
        List<Path> kept = new ArrayList<>();
        for (Path path : sorted) {
            if (kept.stream().noneMatch(path::startsWith)) {
                kept.add(path);
            }
        }
        return kept;
    }

    /**
     * The real location of {@code path}, recording in {@code links} every symbolic link met on the way (its place,
     * itself under no link, and what it holds); {@code null} where it does not exist, is the root, or lies in what
     * the view makes itself.
     */
    static Path reach(Path path, Map<Path, String> links) {
        if (path == null) {
            return null;
        }
        Map<Path, String> met = new LinkedHashMap<>();
        Path real = reach(path.toAbsolutePath().normalize(), met, 0);
        if (real == null || real.getNameCount() == 0 || MADE_BY_THE_VIEW.stream().anyMatch(real::startsWith)
                || !Files.exists(real, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        links.putAll(met);
        return real;
    }

    private static Path reach(Path path, Map<Path, String> links, int depth) {
        if (depth > MOST_LINKS) {
            return null;
        }
        Path at = path.getRoot();
        for (Path name : path) {
            Path next = at.resolve(name);
            if (Files.isSymbolicLink(next)) {
                String target;
                try {
                    target = Files.readSymbolicLink(next).toString();
                } catch (IOException | UnsupportedOperationException e) {
                    return null;
                }
                links.put(next, target);
                // `at` holds no link, so a `..` in the target is lexical there.
                Path resolved = reach(at.resolve(target).normalize(), links, depth + 1);
                if (resolved == null) {
                    return null;
                }
                at = resolved;
            } else {
                at = next;
            }
        }
        return at;
    }

    static String realPath(Path path) {
        if (path == null) {
            return null;
        }
        try {
            return Files.exists(path) ? path.toRealPath().toString() : null;
        } catch (IOException e) {
            return null;
        }
    }
}
