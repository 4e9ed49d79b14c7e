package dev.patchgrade.core.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** What {@code /proc} says of a process: enough to decide whether a process group named by a helper may be killed. */
final class ProcFacts {
    private ProcFacts() {}

    /** The real uid of {@code pid}, or -1 when it is gone or {@code /proc} cannot tell. */
    static long realUid(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("Uid:")) {
                    return Long.parseLong(line.substring(4).strip().split("\\s+")[0]);
                }
            }
        } catch (IOException | RuntimeException e) {
            // gone, or no /proc: unknown
        }
        return -1;
    }

    /**
     * Whether {@code pid} leads its own group and runs as {@code uid}. The pid comes from a file the helper's user
     * can write, so a run could name any process there; the JVM may run as a more powerful user than the helper
     * and must not lend it that power.
     */
    static boolean leadsAGroupOf(long pid, long uid) {
        return pid > 1 && uid >= 0 && PosixCalls.groupOf(pid) == pid && realUid(pid) == uid;
    }
}
