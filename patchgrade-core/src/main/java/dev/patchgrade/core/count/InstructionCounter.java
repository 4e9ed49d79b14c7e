package dev.patchgrade.core.count;

import dev.patchgrade.core.launch.LaunchRequest;
import dev.patchgrade.core.launch.Launcher;

/**
 * Counts the user-mode instructions a command's whole process tree retires, in a run of its own
 * through the same launcher as the graded runs (so it gets the same environment, directory and,
 * where there is one, sandbox).
 */
public interface InstructionCounter {

    /** {@code perf} or {@code valgrind}, as recorded in the envelope's {@code instruction_counter}. */
    String method();

    InstructionCount count(Launcher launcher, LaunchRequest request);
}
