package dev.patchgrade.core.grade;

import dev.patchgrade.core.Setting;
import dev.patchgrade.core.Suggestions;
import dev.patchgrade.core.launch.SandboxSpec;
import dev.patchgrade.core.report.FirstDifference;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a sandboxed run's stderr for the errors the sandbox causes (a path the view does not hold, a hidden
 * path, a write to a read-only one) and says which setting would allow it: a failure that is the sandbox's
 * doing must not look like the candidate's.
 */
public final class SandboxHints {
    /** "<path>: Read-only file system", as perror, the shells and most runtimes print it, with an optional quote. */
    private static final Pattern READ_ONLY = Pattern.compile("['\"`]?(/[^\\s'\"`:]+)['\"`]?\\s*:\\s*Read-only file system");
    /** A word that reads as a path: absolute, or relative with a directory in it. */
    private static final Pattern PATH = Pattern.compile("(?<![\\w./-])(/?[\\w.+-]+(?:/[\\w.+-]+)+/?|/[\\w.+-]+)");
    private static final Pattern SANITIZER_LINE = Pattern.compile("(?m)^(\\s*#\\d+ .*|SUMMARY: .*Sanitizer.*|.*runtime error: .*)$");
    private static final int MOST = 3;
    private static final int MOST_WORDS = 200;

    private SandboxHints() {}

    /**
     * One line per refused path (at most three): which path, what the sandbox did, and the setting.
     *
     * @param hidden the paths the sandbox hid (a refused path under one of them was hidden, not missing)
     * @param views the views the runs had; a path that exists on the host but in none of them was not shown
     * @param workingDirectory where a relative path in the message is read from; {@code null} for absolute paths only
     * @param shown how the settings that allow it are named
     */
    public static List<String> forStderr(String stderr, List<Path> hidden, List<SandboxSpec> views, Path workingDirectory, Suggestions shown) {
        if (stderr == null || stderr.isEmpty()) {
            return List.of();
        }
        // A sanitizer's stack frames and summary name the program's source files, which no run needs to read.
        stderr = SANITIZER_LINE.matcher(stderr).replaceAll("");
        Set<String> hints = new LinkedHashSet<>();
        Set<Path> seen = new LinkedHashSet<>();
        Matcher readOnly = READ_ONLY.matcher(stderr);
        while (readOnly.find() && hints.size() < MOST) {
            Path path = path(readOnly.group(1), null);
            if (path != null && seen.add(path)) {
                hints.add("the sandbox refused a write to " + escaped(path) + " (what a run is shown is read-only; each run has its own empty /tmp). "
                        + "If the program must write there, add the directory to " + shown.setting(Setting.WRITABLE_PATHS));
            }
        }
        Matcher words = PATH.matcher(stderr);
        for (int i = 0; i < MOST_WORDS && hints.size() < MOST && words.find(); i++) {
            Path path = path(words.group(1), workingDirectory);
            if (path == null || !seen.add(path) || !exists(path)) {
                continue;
            }
            if (underAny(path, hidden)) {
                hints.add("the sandbox hid " + escaped(path) + ": it is an oracle, a report, version-control metadata, a reference's home or one "
                        + "of " + shown.setting(Setting.HIDDEN_PATHS) + ", which no run may read (naming it does not show it). If the program "
                        + "needs an input kept there, keep that input beside the oracle files, not in their place");
            } else if (!views.isEmpty() && views.stream().noneMatch(view -> view.holds(path))) {
                hints.add("the sandbox does not show " + escaped(path) + " to the run: a run sees only what it is given (its program and "
                        + "libraries, the paths its command and cases name, the working directory and the system). If the program may read "
                        + "it, add it or its directory to " + shown.setting(Setting.READ_ONLY_PATHS) + " (to "
                        + shown.setting(Setting.WRITABLE_PATHS) + " if it writes there)");
            }
        }
        if (hints.size() < MOST && stderr.contains("Address family not supported by protocol")) {
            hints.add("the sandbox gives a run TCP streams over its own loopback and no other socket (UDP, netlink, packet and unix "
                    + "sockets are refused: their queues hold memory nothing measures). A program that needs them must run with "
                    + shown.setting(Setting.SANDBOX) + " set to off");
        }
        return new ArrayList<>(hints);
    }

    /** The path a word names, read from {@code directory}; {@code null} for a word no file can have (a NUL in it). */
    private static Path path(String word, Path directory) {
        try {
            Path path = Path.of(word);
            if (!path.isAbsolute()) {
                if (directory == null) {
                    return null;
                }
                path = directory.resolve(path);
            }
            return path.normalize();
        } catch (InvalidPathException e) {
            return null;
        }
    }

    private static boolean exists(Path path) {
        return path.getNameCount() > 0 && Files.exists(path);
    }

    /** The path as the candidate wrote it: it is logged, so it is shown escaped, never as the bytes it printed. */
    private static String escaped(Path path) {
        return FirstDifference.escape(path.toString());
    }

    private static boolean underAny(Path path, List<Path> hidden) {
        for (Path area : hidden) {
            if (area != null && (path.startsWith(area.toAbsolutePath().normalize()) || SandboxSpecOfGoal.sameFile(path).startsWith(SandboxSpecOfGoal.sameFile(area)))) {
                return true;
            }
        }
        return false;
    }
}
