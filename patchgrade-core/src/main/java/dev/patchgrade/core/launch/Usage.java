package dev.patchgrade.core.launch;

/**
 * What one run cost, over the whole process tree the command started, waited for or not: CPU,
 * faults and block I/O summed, {@code maxRssKb} the largest single process (as GNU time reports
 * it), {@code treeRssKb} the peak of the tree's summed memory where a memory cgroup measured it,
 * {@code cpuWaitMicros} the time the command's own process was runnable but waiting for a CPU that
 * other processes held (see {@link #outsideWait}): what their load added to its wall time.
 * A {@code null} figure could not be measured on this platform or launch path, or for this run; it is never
 * replaced by a guess.
 *
 * <p>{@code unwaitedCpuMicros} is the CPU of processes of the tree whose end reached no {@code wait4}: the
 * kernel reaped them itself, because their parent ignored SIGCHLD or set SA_NOCLDWAIT. Their CPU is in the
 * figures (a counter that follows every process, or a CPU cgroup, saw it), but their peak RSS, faults and block
 * I/O are known to nobody, so those figures are {@code null}. The helper reports it only where it found such a
 * process (by the page faults it took, or by CPU past the counters' noise), else 0; {@code null} where nothing
 * could tell.
 */
public record Usage(
        Long maxRssKb, Long userMicros, Long systemMicros,
        Long minorFaults, Long majorFaults, Long blockInputs, Long blockOutputs, Long treeRssKb, Long cpuWaitMicros,
        Long unwaitedCpuMicros) {

    public static final Usage UNAVAILABLE = new Usage(null, null, null, null, null, null, null, null, null, null);

    public Usage(Long maxRssKb, Long userMicros, Long systemMicros, Long minorFaults, Long majorFaults, Long blockInputs,
            Long blockOutputs, Long treeRssKb, Long cpuWaitMicros) {
        this(maxRssKb, userMicros, systemMicros, minorFaults, majorFaults, blockInputs, blockOutputs, treeRssKb, cpuWaitMicros, null);
    }

    /**
     * The figures of a run whose tree had {@code unwaitedCpuMicros} of CPU no wait4 saw: past the noise, the
     * per-process figures that only wait4 gives (peak RSS, faults, block I/O) are unknown.
     */
    public static Usage withUnwaited(Long maxRssKb, Long userMicros, Long systemMicros, Long minorFaults, Long majorFaults,
            Long blockInputs, Long blockOutputs, Long treeRssKb, Long cpuWaitMicros, Long unwaitedCpuMicros) {
        if (unwaitedCpuMicros != null && unwaitedCpuMicros < 0) {
            unwaitedCpuMicros = null;
        }
        if (escapedWait(unwaitedCpuMicros)) {
            return new Usage(null, userMicros, systemMicros, null, null, null, null, treeRssKb, cpuWaitMicros, unwaitedCpuMicros);
        }
        return new Usage(maxRssKb, userMicros, systemMicros, minorFaults, majorFaults, blockInputs, blockOutputs, treeRssKb, cpuWaitMicros,
                unwaitedCpuMicros);
    }

    /** Whether a process of the tree escaped every wait4, so its peak RSS, faults and I/O are unknown. */
    public boolean processEscapedWait() {
        return escapedWait(unwaitedCpuMicros);
    }

    private static boolean escapedWait(Long unwaitedCpuMicros) {
        return unwaitedCpuMicros != null && unwaitedCpuMicros > 0;
    }

    /**
     * Why a per-process figure of a run is missing, or {@code null} when it is not missing for that reason.
     *
     * @param unwaitedCpuMicros the run's {@link #unwaitedCpuMicros}
     * @param figure "peak RSS", "page faults", ...
     */
    public static String escapedWaitReason(Long unwaitedCpuMicros, String figure) {
        if (!escapedWait(unwaitedCpuMicros)) {
            return null;
        }
        return String.format(java.util.Locale.ROOT, "a process of the command's tree ended without its figures reaching any wait4: its parent "
                + "ignored SIGCHLD (or set SA_NOCLDWAIT), so the kernel reaped it itself. Its %,d ms of CPU are counted, but its %s is "
                + "known to no one, and a figure without it would let a program hide its cost in such a child. Let the program wait "
                + "for its children", unwaitedCpuMicros / 1000, figure);
    }

    /**
     * The part of the command's run-queue delay that other processes' load caused. Its own threads and
     * children can keep its main thread waiting too (one spinning at SCHED_IDLE behind its own worker
     * waits almost the whole run), but only while they are on a CPU: so whatever the tree ran besides
     * the main thread is taken from the delay first, and only what is left counts as outside load.
     *
     * @param leaderCpuMicros the main thread's own time on a CPU, from the same schedstat line
     */
    public static Long outsideWait(Long runQueueDelayMicros, Long leaderCpuMicros, Long userMicros, Long systemMicros) {
        if (runQueueDelayMicros == null || leaderCpuMicros == null || userMicros == null || systemMicros == null) {
            return null;
        }
        long restOfTree = Math.max(0, userMicros + systemMicros - leaderCpuMicros);
        return Math.max(0, runQueueDelayMicros - restOfTree);
    }

    public Usage(Long maxRssKb, Long userMicros, Long systemMicros, Long minorFaults, Long majorFaults, Long blockInputs,
            Long blockOutputs, Long treeRssKb) {
        this(maxRssKb, userMicros, systemMicros, minorFaults, majorFaults, blockInputs, blockOutputs, treeRssKb, null);
    }

    public Usage(Long maxRssKb, Long userMicros, Long systemMicros, Long minorFaults, Long majorFaults, Long blockInputs,
            Long blockOutputs) {
        this(maxRssKb, userMicros, systemMicros, minorFaults, majorFaults, blockInputs, blockOutputs, null);
    }
}
