package dev.patchgrade.core.launch;

/**
 * What one run cost, over the whole process tree the command started, waited for or not: CPU,
 * faults and block I/O summed, {@code maxRssKb} the largest single process (as GNU time reports
 * it), {@code treeRssKb} the peak of the tree's summed memory where a memory cgroup measured it,
 * {@code cpuWaitMicros} the time the command's own process was runnable but waiting for a CPU that
 * other processes held (see {@link #outsideWait}): what their load added to its wall time.
 * A {@code null} figure could not be measured on this platform or launch path; it is never replaced
 * by a guess.
 */
public record Usage(
        Long maxRssKb, Long userMicros, Long systemMicros,
        Long minorFaults, Long majorFaults, Long blockInputs, Long blockOutputs, Long treeRssKb, Long cpuWaitMicros) {

    public static final Usage UNAVAILABLE = new Usage(null, null, null, null, null, null, null, null, null);

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
