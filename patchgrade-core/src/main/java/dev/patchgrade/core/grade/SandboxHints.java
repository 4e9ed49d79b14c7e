package dev.patchgrade.core.grade;

import dev.patchgrade.core.report.FirstDifference;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a sandboxed run's stderr for the errors the sandbox causes (a write to the read-only host, a
 * read of a hidden path) and says which setting would allow it: a failure that is the sandbox's doing
 * must not look like the candidate's.
 */
public final class SandboxHints {
    /** "<path>: Read-only file system", as perror, the shells and most runtimes print it, with an optional quote. */
    private static final Pattern REFUSED = Pattern.compile(
            "['\"`]?(/[^\\s'\"`:]+)['\"`]?\\s*:\\s*(Read-only file system|Permission denied|No such file or directory)");
    private static final int MOST = 3;

    private SandboxHints() {}

    /**
     * One line per refused path (at most three): which path, what the sandbox did, and the setting.
     *
     * @param hidden the paths the sandbox hid (a refused path under one of them was hidden, not missing)
     * @param shown how the settings that allow it are named
     */
    public static List<String> forStderr(String stderr, List<Path> hidden, Suggestions shown) {
        if (stderr == null || stderr.isEmpty()) {
            return List.of();
        }
        Set<String> hints = new LinkedHashSet<>();
        Matcher matcher = REFUSED.matcher(stderr);
        while (matcher.find() && hints.size() < MOST) {
            // The path is the candidate's text: it is logged, so it is shown escaped, never as the bytes it printed.
            String path = FirstDifference.escape(matcher.group(1));
            String error = matcher.group(2);
            if (error.equals("Read-only file system")) {
                hints.add("the sandbox refused a write to " + path + " (the host is read-only there; each run has its own empty /tmp). "
                        + "If the program must write there, add the directory to " + shown.setting(Setting.WRITABLE_PATHS));
            } else if (underAny(matcher.group(1), hidden)) {
                hints.add("the sandbox hid " + path + " (" + error + "): it lies under a hidden path. If the program may read it, add it "
                        + "to " + shown.setting(Setting.READ_ONLY_PATHS));
            }
        }
        if (hints.size() < MOST && stderr.contains("Address family not supported by protocol")) {
            hints.add("the sandbox gives a run TCP streams over its own loopback and no other socket (UDP, netlink, packet and unix "
                    + "sockets are refused: their queues hold memory nothing measures). A program that needs them must run with "
                    + shown.setting(Setting.SANDBOX) + " set to off");
        }
        return new ArrayList<>(hints);
    }

    private static boolean underAny(String path, List<Path> hidden) {
        Path candidate;
        try {
            candidate = Path.of(path).normalize();
        } catch (InvalidPathException e) {
            // A NUL in it: no file has such a path, so the sandbox hid nothing (and the grade must not stop on it).
            return false;
        }
        for (Path area : hidden) {
            if (area != null && candidate.startsWith(area.toAbsolutePath().normalize())) {
                return true;
            }
        }
        return false;
    }
}
