package dev.patchgrade.core.count;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.PatchgradeException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Picks the instruction counter for an execution from the {@code instructionCounter} setting and
 * what this machine has: hardware counters where the kernel allows, else Valgrind, else none.
 */
public final class InstructionCounters {
    private InstructionCounters() {}

    /**
     * The choice: a counter, or none with the reason (one sentence per counter that was ruled out).
     *
     * @param counter {@code null} when nothing can count here (or {@code none} was asked for)
     */
    public record Choice(InstructionCounter counter, String unavailable) {
        public boolean available() {
            return counter != null;
        }

        public String method() {
            return counter == null ? null : counter.method();
        }
    }

    /** The choice on this machine, looking for valgrind on {@code path} (the children's {@code PATH}). */
    public static Choice choose(CounterMode mode, String preferred, String path) {
        return choose(mode, preferred, PerfCounter::probe, ValgrindCounter.locate(path));
    }

    /**
     * @param preferred the counter an envelope was recorded with, or {@code null}: {@code auto} takes it
     *     when it is available, so an envelope recorded with Valgrind grades with Valgrind on a host with counters
     * @param perf the answer of the kernel (a parameter so that a missing counter can be simulated)
     * @param valgrind the valgrind executable, when there is one
     */
    public static Choice choose(CounterMode mode, String preferred, Supplier<PerfCounter.Probe> perf, Optional<Path> valgrind) {
        String noValgrind = "valgrind is not on PATH (install it, e.g. apt-get install valgrind)";
        switch (mode) {
            case NONE:
                return new Choice(null, "instructionCounter=none");
            case VALGRIND:
                return valgrind.<Choice>map(v -> new Choice(new ValgrindCounter(v), null)).orElseGet(() -> new Choice(null, noValgrind));
            case PERF: {
                PerfCounter.Probe probe = perf.get();
                return probe.available() ? new Choice(new PerfCounter(), null) : new Choice(null, probe.problem());
            }
            default: {
                if ("valgrind".equals(preferred) && valgrind.isPresent()) {
                    return new Choice(new ValgrindCounter(valgrind.get()), null);
                }
                PerfCounter.Probe probe = perf.get();
                if (probe.available()) {
                    return new Choice(new PerfCounter(), null);
                }
                return valgrind.<Choice>map(v -> new Choice(new ValgrindCounter(v), null))
                        .orElseGet(() -> new Choice(null, probe.problem() + "; " + noValgrind));
            }
        }
    }

    /** An explicit {@code perf} or {@code valgrind} that cannot count here is a setup error, not a silent skip. */
    public static Choice require(CounterMode mode, Choice choice) {
        if ((mode == CounterMode.PERF || mode == CounterMode.VALGRIND) && !choice.available()) {
            throw new PatchgradeException(ErrorName.COUNTER_UNAVAILABLE, "instructionCounter=" + mode.wireName() + " cannot count on this machine: "
                    + choice.unavailable() + ". Use instructionCounter=auto (or none to record no max_instructions)");
        }
        return choice;
    }
}
