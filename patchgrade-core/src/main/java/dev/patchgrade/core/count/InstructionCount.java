package dev.patchgrade.core.count;

/**
 * The user-mode instructions retired by one counting run of a command's whole process tree.
 *
 * @param value the count, or {@code null} when it could not be taken
 * @param method {@code perf} or {@code valgrind}: the counter that took it (or tried to)
 * @param problem why there is no count, one sentence; {@code null} when there is one
 */
public record InstructionCount(Long value, String method, String problem) {

    public static InstructionCount of(long value, String method) {
        return new InstructionCount(value, method, null);
    }

    public static InstructionCount failed(String method, String problem) {
        return new InstructionCount(null, method, problem);
    }

    public boolean measured() {
        return value != null;
    }
}
