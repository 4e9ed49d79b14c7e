package dev.patchgrade.core.launch;

/**
 * What happened to one launched command.
 *
 * @param startFailure set when the command never ran; every other field is then empty
 * @param exitCode the exit status when the child exited by itself, else {@code null}
 * @param signal the name of the terminating signal ({@code SIGSEGV}), else {@code null}
 * @param signalNumber its number on this platform, where known
 * @param timedOut the launcher killed the child's process group after the timeout
 * @param outputLimited a stream reached the output cap (the child was stopped by SIGXFSZ or its file is full)
 * @param usage the child's own rusage, with unmeasurable figures {@code null}
 * @param wallMicros from start to the child's exit
 * @param leftovers descendants still alive when the command exited, killed by the launcher
 * @param held the output files the launcher holds for the caller ({@link LaunchRequest#holdingOutput()}), else {@code null}
 */
public record LaunchResult(
        StartFailure startFailure,
        Integer exitCode,
        String signal,
        Integer signalNumber,
        boolean timedOut,
        boolean outputLimited,
        Usage usage,
        long wallMicros,
        StreamDigest stdout,
        StreamDigest stderr,
        int leftovers,
        HeldOutput held) {

    public LaunchResult(StartFailure startFailure, Integer exitCode, String signal, Integer signalNumber, boolean timedOut,
            boolean outputLimited, Usage usage, long wallMicros, StreamDigest stdout, StreamDigest stderr) {
        this(startFailure, exitCode, signal, signalNumber, timedOut, outputLimited, usage, wallMicros, stdout, stderr, 0, null);
    }

    public static LaunchResult couldNotStart(StartFailure failure) {
        return new LaunchResult(failure, null, null, null, false, false, Usage.UNAVAILABLE, 0, null, null, 0, null);
    }

    /**
     * For a run whose output is held: copies the streams to {@code <prefix>.stdout} and {@code <prefix>.stderr}, lets
     * the held files go, and returns the result naming the kept files. Any other result is returned as it is.
     */
    public LaunchResult keepOutputAs(java.nio.file.Path prefix) {
        if (held == null) {
            return this;
        }
        java.nio.file.Path[] kept = held.keepAs(prefix);
        return new LaunchResult(startFailure, exitCode, signal, signalNumber, timedOut, outputLimited, usage, wallMicros,
                stdout.keptAs(kept[0]), stderr.keptAs(kept[1]), leftovers, null);
    }

    /** Lets held output go: the result names no files any more. Any other result is returned as it is. */
    public LaunchResult released() {
        if (held == null) {
            return this;
        }
        held.release();
        return new LaunchResult(startFailure, exitCode, signal, signalNumber, timedOut, outputLimited, usage, wallMicros,
                stdout.keptAs(null), stderr.keptAs(null), leftovers, null);
    }

    public boolean started() {
        return startFailure == null;
    }

    public boolean exitedZero() {
        return started() && !timedOut && exitCode != null && exitCode == 0;
    }

    public long wallMillis() {
        return wallMicros / 1000;
    }

    /**
     * The wall time less the time the command's process waited for a CPU that other processes held:
     * the time an idle machine would have shown. Load moves wall time but hardly this, which is why
     * time buckets use it; where the launch path cannot see the run-queue delay it is the wall time.
     */
    public long loadFreeMillis() {
        Long waiting = usage == null ? null : usage.cpuWaitMicros();
        return (wallMicros - (waiting == null ? 0 : Math.min(Math.max(0, waiting), wallMicros))) / 1000;
    }

    /** How the run ended, in words: "exit 3", "killed by SIGSEGV", "timed out", "could not start: ...". */
    public String outcome() {
        if (!started()) {
            return "could not start: " + startFailure.describe();
        }
        if (timedOut) {
            return "timed out";
        }
        if (signal != null) {
            return "killed by " + signal;
        }
        return "exit " + exitCode;
    }
}
