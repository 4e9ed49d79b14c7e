package dev.patchgrade.core.launch;

import com.sun.jna.Library;
import com.sun.jna.Native;

/**
 * The few libc calls the JDK lacks, through JNA: signalling a whole process group is the
 * last-resort cleanup when a helper dies while its child runs.
 */
final class PosixCalls {
    static final int SIGKILL = 9;
    static final int SIGCONT = 18;

    static final int PR_SET_CHILD_SUBREAPER = 36;
    static final int PR_GET_DUMPABLE = 3;
    static final int PR_SET_DUMPABLE = 4;

    private interface LibC extends Library {
        int kill(int pid, int signal);

        int prctl(int option, long arg2, long arg3, long arg4, long arg5);

        int getsid(int pid);

        int getpgid(int pid);

        int waitpid(int pid, int[] status, int options);
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

    /** Makes this JVM adopt the orphans of its descendants (Linux); false where it cannot. */
    static boolean becomeSubreaper() {
        return LIBC != null && LIBC.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0;
    }

    /** Whether this process is dumpable (traceable, its /proc files its user's); {@code null} where that cannot be had. */
    static Boolean dumpable() {
        if (LIBC == null) {
            return null;
        }
        int state = LIBC.prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
        return state < 0 ? null : state == 1;
    }

    /** Makes this process dumpable or not; false where it could not. */
    static boolean setDumpable(boolean dumpable) {
        return LIBC != null && LIBC.prctl(PR_SET_DUMPABLE, dumpable ? 1 : 0, 0, 0, 0) == 0;
    }

    /** The session of {@code pid}, or -1 where it cannot be had. */
    static int sessionOf(long pid) {
        return LIBC == null ? -1 : LIBC.getsid((int) pid);
    }

    /** The process group of {@code pid}, or -1 where it cannot be had. */
    static int groupOf(long pid) {
        return LIBC == null ? -1 : LIBC.getpgid((int) pid);
    }

    /** Kills {@code pid} and reaps it: an orphan adopted by this JVM is no process the JDK waits for. */
    static void killAndReap(long pid) {
        if (LIBC == null || pid <= 1) {
            return;
        }
        LIBC.kill((int) pid, SIGKILL);
        LIBC.waitpid((int) pid, new int[1], 0);
    }

    /** Sends SIGKILL to the process group led by {@code groupLeader}; false when it could not. */
    static boolean killGroup(long groupLeader) {
        if (LIBC == null || groupLeader <= 1) {
            return false;
        }
        return LIBC.kill((int) -groupLeader, SIGKILL) == 0;
    }

    /** Sends {@code signal} to {@code pid}; false when it could not. */
    static boolean signal(long pid, int signal) {
        return LIBC != null && pid > 1 && LIBC.kill((int) pid, signal) == 0;
    }
}
