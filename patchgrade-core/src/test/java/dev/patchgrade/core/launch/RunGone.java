package dev.patchgrade.core.launch;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Whether a process a run started is gone. A zombie counts as gone: it runs nothing and holds nothing
 * but its pid, and once its parent (the killed helper) is dead, only PID 1 can reap it. PID 1 of these
 * machines reaps orphans every few seconds, not at once (an orphaned zombie stayed 1 s and was gone by
 * 4 s), so "alive" by {@link ProcessHandle#isAlive} would blame the launcher for PID 1's pace.
 */
final class RunGone {
    private RunGone() {}

    /** The pid written to {@code pidFile} (none written: it never started) is gone within {@code wait}; if not, it is killed. */
    static boolean gone(Path pidFile, Duration wait) throws Exception {
        if (!Files.exists(pidFile)) {
            return true;
        }
        String text = Files.readString(pidFile).strip();
        return text.isEmpty() || gone(Long.parseLong(text), wait);
    }

    static boolean gone(long pid, Duration wait) throws Exception {
        ProcessHandle handle = ProcessHandle.of(pid).orElse(null);
        if (handle == null) {
            return true;
        }
        long giveUp = System.nanoTime() + wait.toNanos();
        while (System.nanoTime() < giveUp) {
            if (!handle.isAlive() || zombie(pid)) {
                return true;
            }
            handle.onExit().completeOnTimeout(null, 50, TimeUnit.MILLISECONDS).get();
        }
        if (!handle.isAlive() || zombie(pid)) {
            return true;
        }
        handle.destroyForcibly();
        return false;
    }

    /** State Z (or X, being removed) in /proc/<pid>/stat: dead, waiting to be reaped. */
    static boolean zombie(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"), StandardCharsets.ISO_8859_1);
            int close = stat.lastIndexOf(')');
            char state = close < 0 || close + 2 >= stat.length() ? '?' : stat.charAt(close + 2);
            return state == 'Z' || state == 'X';
        } catch (java.io.IOException e) {
            return true; // no /proc entry: reaped
        }
    }
}
