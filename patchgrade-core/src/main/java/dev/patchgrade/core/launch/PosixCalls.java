package dev.patchgrade.core.launch;

import com.sun.jna.Library;
import com.sun.jna.Native;

/**
 * The few libc calls the JDK lacks, through JNA: signalling a whole process group is the
 * last-resort cleanup when a helper dies while its child runs.
 */
final class PosixCalls {
    static final int SIGKILL = 9;

    private interface LibC extends Library {
        int kill(int pid, int signal);
    }

    private static final LibC LIBC = load();

    private PosixCalls() {}

    private static LibC load() {
        try {
            return Native.load("c", LibC.class);
        } catch (UnsatisfiedLinkError | RuntimeException e) {
            return null;
        }
    }

    /** Sends SIGKILL to the process group led by {@code groupLeader}; false when it could not. */
    static boolean killGroup(long groupLeader) {
        if (LIBC == null || groupLeader <= 1) {
            return false;
        }
        return LIBC.kill((int) -groupLeader, SIGKILL) == 0;
    }
}
