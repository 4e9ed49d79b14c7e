package dev.patchgrade.core.launch;

/**
 * What one run cost, from the child's own {@code wait4} rusage. A {@code null} figure could not be
 * measured on this platform or launch path; it is never replaced by a guess.
 */
public record Usage(
        Long maxRssKb, Long userMicros, Long systemMicros,
        Long minorFaults, Long majorFaults, Long blockInputs, Long blockOutputs) {

    public static final Usage UNAVAILABLE = new Usage(null, null, null, null, null, null, null);
}
