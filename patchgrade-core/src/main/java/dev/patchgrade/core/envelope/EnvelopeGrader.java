package dev.patchgrade.core.envelope;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.count.InstructionCount;
import dev.patchgrade.core.launch.Usage;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Grades runs of one command against an envelope. Failures of any run (timeout, exit, signal,
 * stdout, output cap) reject; each resource figure graded is its minimum over the runs, so one
 * noisy run on a busy agent does not cry wolf.
 */
public final class EnvelopeGrader {
    private EnvelopeGrader() {}

    /**
     * Where the cheapest of several runs passed a ceiling that another run of the same grade broke: one line per
     * such ceiling, empty with one run. A busy machine does that; so does a candidate that keeps its answer
     * between runs in kernel state no sandbox separates, which the grade cannot tell apart, so it is said.
     */
    public static List<String> disagreements(Envelope envelope, List<EnvelopeRun> runs) {
        List<String> lines = new ArrayList<>();
        if (runs.size() < 2) {
            return lines;
        }
        for (Map.Entry<Ceiling, Long> entry : new EnumMap<>(envelope.ceilings()).entrySet()) {
            Ceiling ceiling = entry.getKey();
            Long cheapest = null;
            Long dearest = null;
            int dearestRun = 0;
            for (int i = 0; i < runs.size(); i++) {
                Long value = ceiling == Ceiling.INSTRUCTIONS ? null : ceiling.figure(runs.get(i));
                if (value == null) {
                    continue;
                }
                cheapest = cheapest == null ? value : Math.min(cheapest, value);
                if (dearest == null || value > dearest) {
                    dearest = value;
                    dearestRun = i + 1;
                }
            }
            if (cheapest != null && cheapest <= entry.getValue() && dearest > entry.getValue()) {
                String unit = ceiling.unit().isEmpty() ? "" : " " + ceiling.unit();
                lines.add(String.format(Locale.ROOT, "%s: run %d of %d measured %,d%s, over the ceiling of %,d%s; the grade took the cheapest "
                        + "run, %,d%s", ceiling.label(), dearestRun, runs.size(), dearest, unit, entry.getValue(), unit, cheapest, unit));
            }
        }
        return lines;
    }

    /**
     * @param expectedStdoutSha256 the SHA-256 the stdout must have, or {@code null} to not compare
     * @param hostDifferences differences that count as {@code host_mismatch} (empty when the check passed or is off)
     */
    public static EnvelopeVerdict grade(Envelope envelope, List<EnvelopeRun> runs, String expectedStdoutSha256,
            List<String> hostDifferences) {
        return grade(envelope, runs, expectedStdoutSha256, hostDifferences, null);
    }

    /**
     * @param instructions the count of the separate counting run, or {@code null} when none was taken
     *     (then a {@code max_instructions} ceiling is an error unless a run already failed)
     */
    public static EnvelopeVerdict grade(Envelope envelope, List<EnvelopeRun> runs, String expectedStdoutSha256,
            List<String> hostDifferences, InstructionCount instructions) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("grading needs at least one run");
        }
        Set<String> reasons = new LinkedHashSet<>();
        boolean anyTimeout = runs.stream().anyMatch(EnvelopeRun::timedOut);
        if (anyTimeout) {
            reasons.add("timeout");
        }
        for (EnvelopeRun run : runs) {
            if (!run.timedOut() && run.exitCode() != null && run.exitCode() != 0) {
                reasons.add("exit_" + run.exitCode());
            }
        }
        for (EnvelopeRun run : runs) {
            // A run stopped at the output cap got its signal for that: output_limit says so, not the signal.
            if (!run.timedOut() && run.signal() != null && !run.outputLimited()) {
                reasons.add("signal_" + run.signal());
            }
        }
        Map<Ceiling, Long> graded = new EnumMap<>(Ceiling.class);
        List<EnvelopeVerdict.Breach> breaches = new ArrayList<>();
        for (Map.Entry<Ceiling, Long> entry : new EnumMap<>(envelope.ceilings()).entrySet()) {
            Ceiling ceiling = entry.getKey();
            if (ceiling == Ceiling.INSTRUCTIONS) {
                if (instructions != null && instructions.measured()) {
                    graded.put(ceiling, instructions.value());
                    if (!anyTimeout && instructions.value() > entry.getValue()) {
                        breaches.add(new EnvelopeVerdict.Breach(ceiling, instructions.value(), entry.getValue()));
                        reasons.add(ceiling.reason());
                    }
                } else if (instructions != null && instructions.diverged()) {
                    // Not a count of the graded work: a candidate that does other work under the counter never passes on it.
                    breaches.add(EnvelopeVerdict.Breach.without(ceiling, entry.getValue(), instructions.problem()));
                    reasons.add(ceiling.reason());
                } else if (runs.stream().allMatch(run -> run.clean() && (expectedStdoutSha256 == null
                        || expectedStdoutSha256.equals(run.stdoutSha256())))) {
                    throw new PatchgradeException(ErrorName.UNMEASURABLE_CEILING, envelope.file() + ": key \"max_instructions\" sets a ceiling on "
                            + "instructions, which could not be counted here: " + (instructions == null ? "no counter was run"
                                    : instructions.problem()) + ". Grading it would be a guess, so nothing was graded. "
                            + (instructions == null ? "Install valgrind (or allow perf_event_open)" : "Fix what stopped the count")
                            + ", or remove the key if instructions are not to be graded");
                }
                // A run that failed (or printed other than the expected stdout) already rejects; its tree needs no count.
                continue;
            }
            Long minimum = null;
            for (EnvelopeRun run : runs) {
                Long value = ceiling.figure(run);
                String escaped = value == null ? Usage.escapedWaitReason(run.unwaitedCpuMicros(), ceiling.label()) : null;
                if (escaped != null) {
                    throw new PatchgradeException(ErrorName.UNMEASURABLE_CEILING, envelope.file() + ": key \"" + ceiling.key() + "\" sets a ceiling on "
                            + ceiling.label() + ", which could not be measured for " + String.join(" ", envelope.cmd()) + ": " + escaped
                            + ". Grading it would be a guess, so nothing was graded");
                }
                if (value == null) {
                    String why = ceiling == Ceiling.TREE_RSS
                            ? "it needs a memory cgroup the launcher can create: cgroup v1 writable by this user (root), or a delegated "
                                    + "cgroup v2 subtree with the memory controller; record-envelope writes it wherever it measured it, so "
                                    + "grade where it can be measured, or remove the key to grade without it"
                            : "the launch helper is unavailable; the warning above says why: no C compiler, or a helper cache that is "
                                    + "not writable or is mounted noexec";
                    throw new PatchgradeException(ErrorName.UNMEASURABLE_CEILING, envelope.file() + ": key \"" + ceiling.key() + "\" sets a ceiling on "
                            + ceiling.label() + ", which cannot be measured on this machine (" + why + "). Grading it would be a guess, "
                            + "so nothing was graded");
                }
                minimum = minimum == null ? value : Math.min(minimum, value);
            }
            graded.put(ceiling, minimum);
            // A timed-out run's figures are cut short; the timeout already rejects it.
            if (!anyTimeout && minimum > entry.getValue()) {
                breaches.add(new EnvelopeVerdict.Breach(ceiling, minimum, entry.getValue()));
                reasons.add(ceiling.reason());
            }
        }
        if (expectedStdoutSha256 != null && runs.stream().anyMatch(run -> !run.timedOut() && !expectedStdoutSha256.equals(run.stdoutSha256()))) {
            reasons.add("stdout");
        }
        if (runs.stream().anyMatch(EnvelopeRun::outputLimited)) {
            reasons.add("output_limit");
        }
        if (!hostDifferences.isEmpty()) {
            reasons.add("host_mismatch");
        }
        return new EnvelopeVerdict(List.copyOf(reasons), List.copyOf(breaches), graded, List.copyOf(runs), List.copyOf(hostDifferences));
    }
}
