package dev.patchgrade.core.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What a launcher's children may see: the mode asked for, and the paths to hide, to show read-only
 * and to make writable. Everything else of the host is visible read-only, with an empty {@code /tmp}
 * of each run's own.
 *
 * @param hidden areas hidden first (the home directory): paths inside them can be shown again
 * @param shown paths shown read-only again inside hidden areas so the command can run (project, working directory, executable)
 * @param oracles paths hidden after those, so that nothing shown or writable exposes them (oracles,
 *     {@code hiddenPaths}, reports, scratch, the launcher's cache)
 * @param readOnly the user's {@code readOnlyPaths}: visible read-only, even inside a hidden area
 * @param writable the user's {@code writablePaths}
 */
public record SandboxSpec(Mode mode, List<Path> hidden, List<Path> shown, List<Path> oracles, List<Path> readOnly, List<Path> writable) {

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
        hidden = List.copyOf(hidden);
        shown = List.copyOf(shown);
        oracles = List.copyOf(oracles);
        readOnly = List.copyOf(readOnly);
        writable = List.copyOf(writable);
    }

    /** No sandbox: tests of launch mechanics, and {@code sandbox=off}. */
    public static SandboxSpec off() {
        return new SandboxSpec(Mode.OFF, List.of(), List.of(), List.of(), List.of(), List.of());
    }

    /** Mode only, nothing hidden beyond the read-only host and fresh {@code /tmp}. */
    public static SandboxSpec of(Mode mode) {
        return new SandboxSpec(mode, List.of(), List.of(), List.of(), List.of(), List.of());
    }

    public SandboxSpec withMode(Mode newMode) {
        return new SandboxSpec(newMode, hidden, shown, oracles, readOnly, writable);
    }

    /** The same spec with more oracle paths hidden (e.g. the reference binary while a candidate runs). */
    public SandboxSpec hidingAlso(List<Path> more) {
        List<Path> all = new ArrayList<>(oracles);
        all.addAll(more);
        return new SandboxSpec(mode, hidden, shown, all, readOnly, writable);
    }

    /**
     * The helper's arguments, in the order it applies them: broad hides, shown again, writable,
     * oracle hides, then the user's read-only paths and the oracles inside those again. Paths are
     * resolved to their real location (a symlinked gold directory is hidden where its files are);
     * absent paths are left out, the read-only host keeps them absent.
     */
    public List<String> helperArguments() {
        List<String> args = new ArrayList<>();
        add(args, "--hide", hidden);
        // The directory the build runs in is the project (or its reactor): shown like the project, so that a
        // checkout under /tmp is not lost under each run's fresh /tmp. Oracles are hidden after it.
        // Not where it holds the home directory (Maven run from ~): that would show all of home again.
        List<Path> shownAndBuild = new ArrayList<>(shown);
        Path build = Path.of(System.getProperty("user.dir")).toAbsolutePath().normalize();
        if (!Path.of(System.getProperty("user.home")).toAbsolutePath().normalize().startsWith(build)) {
            shownAndBuild.add(build);
        }
        add(args, "--ro", shownAndBuild);
        add(args, "--rw", writable);
        add(args, "--hide", oracles);
        add(args, "--ro", readOnly);
        // A read-only path is bound straight from the host: the oracles inside one are hidden again.
        List<Path> inside = new ArrayList<>();
        for (Path oracle : oracles) {
            String real = realPath(oracle);
            for (Path shown : readOnly) {
                String outer = realPath(shown);
                if (real != null && outer != null && !real.equals(outer) && Path.of(real).startsWith(Path.of(outer))) {
                    inside.add(oracle);
                    break;
                }
            }
        }
        add(args, "--hide", inside);
        return args;
    }

    private static void add(List<String> args, String flag, List<Path> paths) {
        Set<String> seen = new LinkedHashSet<>();
        for (Path path : paths) {
            String real = realPath(path);
            if (real != null && !real.equals("/") && seen.add(real)) {
                args.add(flag);
                args.add(real);
            }
        }
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
