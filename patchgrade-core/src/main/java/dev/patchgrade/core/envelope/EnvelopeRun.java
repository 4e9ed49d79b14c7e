package dev.patchgrade.core.envelope;

import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.launch.Usage;

/**
 * The figures of one run of the graded command, over its whole process tree. A {@code null} figure
 * was not measurable.
 *
 * @param treeRssKb the peak of the tree's summed memory (memory cgroup), or {@code null} without one
 * @param leftovers descendants still alive when the command exited, killed and counted
 */
public record EnvelopeRun(
        Integer exitCode, String signal, boolean timedOut, boolean outputLimited,
        Long maxRssKb, Long userMicros, Long systemMicros, long wallMillis,
        Long minorFaults, Long majorFaults, Long blockInputs, Long blockOutputs,
        String stdoutSha256, String stdoutExcerpt, String stderrExcerpt, Long treeRssKb, int leftovers, Long unwaitedCpuMicros) {

    /** Without {@code unwaitedCpuMicros} ({@link Usage#unwaitedCpuMicros}): nothing told whether a process escaped wait4. */
    public EnvelopeRun(Integer exitCode, String signal, boolean timedOut, boolean outputLimited, Long maxRssKb, Long userMicros,
            Long systemMicros, long wallMillis, Long minorFaults, Long majorFaults, Long blockInputs, Long blockOutputs,
            String stdoutSha256, String stdoutExcerpt, String stderrExcerpt, Long treeRssKb, int leftovers) {
        this(exitCode, signal, timedOut, outputLimited, maxRssKb, userMicros, systemMicros, wallMillis, minorFaults, majorFaults,
                blockInputs, blockOutputs, stdoutSha256, stdoutExcerpt, stderrExcerpt, treeRssKb, leftovers, null);
    }

    public EnvelopeRun(Integer exitCode, String signal, boolean timedOut, boolean outputLimited, Long maxRssKb, Long userMicros,
            Long systemMicros, long wallMillis, Long minorFaults, Long majorFaults, Long blockInputs, Long blockOutputs,
            String stdoutSha256, String stdoutExcerpt, String stderrExcerpt) {
        this(exitCode, signal, timedOut, outputLimited, maxRssKb, userMicros, systemMicros, wallMillis, minorFaults, majorFaults,
                blockInputs, blockOutputs, stdoutSha256, stdoutExcerpt, stderrExcerpt, null, 0);
    }

    public static EnvelopeRun of(LaunchResult result) {
        Usage usage = result.usage();
        return new EnvelopeRun(result.exitCode(), result.signal(), result.timedOut(), result.outputLimited(),
                usage.maxRssKb(), usage.userMicros(), usage.systemMicros(), result.wallMillis(),
                usage.minorFaults(), usage.majorFaults(), usage.blockInputs(), usage.blockOutputs(),
                result.stdout().sha256(), result.stdout().excerpt(), result.stderr().excerpt(), usage.treeRssKb(), result.leftovers(),
                usage.unwaitedCpuMicros());
    }

    public boolean clean() {
        return !timedOut && !outputLimited && signal == null && exitCode != null && exitCode == 0;
    }
}
