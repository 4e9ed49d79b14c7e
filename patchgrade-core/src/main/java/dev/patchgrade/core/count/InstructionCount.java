package dev.patchgrade.core.count;

/**
 * The user-mode instructions retired by one counting run of a command's whole process tree.
 *
 * @param value the count, or {@code null} when it could not be taken (or was of other work than the graded runs')
 * @param method {@code perf} or {@code valgrind}: the counter that took it (or tried to)
 * @param problem why there is no count, one sentence; {@code null} when there is one
 * @param stdoutSha256 the SHA-256 of what the counting run printed, so that it can be held against the
 *     graded runs' (a program that behaves differently under the counter cannot be counted); {@code null} when unknown
 * @param diverged the counting run ended cleanly but printed something else than the graded runs: a count of other
 *     work, which no ceiling can be recorded from and no candidate passes with
 * @param wallMillis the counting run's wall time, where it was timed: what the count cost the build
 */
public record InstructionCount(Long value, String method, String problem, String stdoutSha256, boolean diverged, Long wallMillis) {

    public static InstructionCount of(long value, String method) {
        return of(value, method, null);
    }

    public static InstructionCount of(long value, String method, String stdoutSha256) {
        return new InstructionCount(value, method, null, stdoutSha256, false, null);
    }

    public static InstructionCount failed(String method, String problem) {
        return new InstructionCount(null, method, problem, null, false, null);
    }

    /** A count whose run printed something else than the graded runs: {@code problem} says what. */
    public InstructionCount divergedBecause(String problem) {
        return new InstructionCount(null, method, problem, stdoutSha256, true, wallMillis);
    }

    /** This count, with the wall time its run took. */
    public InstructionCount timed(long millis) {
        return new InstructionCount(value, method, problem, stdoutSha256, diverged, millis);
    }

    public boolean measured() {
        return value != null;
    }

    /** What the counter that took this count cannot see, one paragraph for the reports; {@code null} when nothing is known. */
    public String limitation() {
        return "valgrind".equals(method) ? ValgrindCounter.LIMITATION : null;
    }
}
