package dev.patchgrade.core.envelope;

import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.launch.Usage;

/** The figures of one run of the graded command. A {@code null} figure was not measurable. */
public record EnvelopeRun(
        Integer exitCode, String signal, boolean timedOut, boolean outputLimited,
        Long maxRssKb, Long userMicros, Long systemMicros, long wallMillis,
        Long minorFaults, Long majorFaults, Long blockInputs, Long blockOutputs,
        String stdoutSha256, String stdoutExcerpt, String stderrExcerpt) {

    public static EnvelopeRun of(LaunchResult result) {
        Usage usage = result.usage();
        return new EnvelopeRun(result.exitCode(), result.signal(), result.timedOut(), result.outputLimited(),
                usage.maxRssKb(), usage.userMicros(), usage.systemMicros(), result.wallMillis(),
                usage.minorFaults(), usage.majorFaults(), usage.blockInputs(), usage.blockOutputs(),
                result.stdout().sha256(), result.stdout().excerpt(), result.stderr().excerpt());
    }

    public boolean clean() {
        return !timedOut && !outputLimited && signal == null && exitCode != null && exitCode == 0;
    }
}
