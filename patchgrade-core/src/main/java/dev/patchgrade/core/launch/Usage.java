package dev.patchgrade.core.launch;

/**
 * What one run cost, over the whole process tree the command started, waited for or not: CPU,
 * faults and block I/O summed, {@code maxRssKb} the largest single process (as GNU time reports
 * it), {@code treeRssKb} the peak of the tree's summed memory where a memory cgroup measured it,
 * {@code cpuWaitMicros} the time the command's own process was runnable but waiting for a CPU (the
 * kernel's run-queue delay: what other processes' load added to its wall time).
 * A {@code null} figure could not be measured on this platform or launch path; it is never replaced
 * by a guess.
 */
public record Usage(
        Long maxRssKb, Long userMicros, Long systemMicros,
        Long minorFaults, Long majorFaults, Long blockInputs, Long blockOutputs, Long treeRssKb, Long cpuWaitMicros) {

    public static final Usage UNAVAILABLE = new Usage(null, null, null, null, null, null, null, null, null);

    public Usage(Long maxRssKb, Long userMicros, Long systemMicros, Long minorFaults, Long majorFaults, Long blockInputs,
            Long blockOutputs, Long treeRssKb) {
        this(maxRssKb, userMicros, systemMicros, minorFaults, majorFaults, blockInputs, blockOutputs, treeRssKb, null);
    }

    public Usage(Long maxRssKb, Long userMicros, Long systemMicros, Long minorFaults, Long majorFaults, Long blockInputs,
            Long blockOutputs) {
        this(maxRssKb, userMicros, systemMicros, minorFaults, majorFaults, blockInputs, blockOutputs, null);
    }
}
