package dev.patchgrade.core.envelope;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.count.InstructionCount;
import dev.patchgrade.core.host.HostInfo;
import dev.patchgrade.core.launch.Usage;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * A baseline measurement turned into ceilings. With several runs the worst figure of each is kept,
 * so the recorded headroom covers the noise the baseline itself showed.
 */
public record EnvelopeRecording(
        List<String> cmd, double timeoutSeconds, Map<Ceiling, Long> ceilings, Map<Ceiling, Long> worst,
        List<EnvelopeRun> runs, Slack slack, HostInfo host, String toolchain, String notes,
        String instructionCounter, int instructionSlackPercent) {

    public static EnvelopeRecording of(List<String> cmd, double timeoutSeconds, List<EnvelopeRun> runs, Slack slack,
            HostInfo host, String toolchain) {
        return of(cmd, timeoutSeconds, runs, slack, host, toolchain, stderr -> "");
    }

    /** @param hints what the sandbox has to say about a run's stderr (the path it did not show), appended to a failure */
    public static EnvelopeRecording of(List<String> cmd, double timeoutSeconds, List<EnvelopeRun> runs, Slack slack,
            HostInfo host, String toolchain, java.util.function.UnaryOperator<String> hints) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("a recording needs at least one run");
        }
        for (int i = 0; i < runs.size(); i++) {
            EnvelopeRun run = runs.get(i);
            if (!run.clean()) {
                String failure = "the known-good command " + String.join(" ", cmd) + " did not finish cleanly in run " + (i + 1) + " (" + describe(run)
                        + dev.patchgrade.core.report.StderrTail.of(run.stderrExcerpt()) + hints.apply(run.stderrExcerpt())
                        + "\nAn envelope is recorded only from a run that exits 0 within the timeout. Fix the command"
                        + (run.timedOut() ? " or raise " : "");
                throw new PatchgradeException(ErrorName.BASELINE_FAILED, shown -> failure + (run.timedOut() ? shown.setting(Setting.TIMEOUT) : ""));
            }
            String escaped = Usage.escapedWaitReason(run.unwaitedCpuMicros(), Ceiling.RSS.label());
            if (escaped != null) {
                throw new PatchgradeException(ErrorName.UNMEASURABLE_CEILING, "no envelope can be recorded for " + String.join(" ", cmd) + " (run "
                        + (i + 1) + "): " + escaped);
            }
            if (run.maxRssKb() == null || run.userMicros() == null || run.systemMicros() == null) {
                throw new PatchgradeException(ErrorName.UNMEASURABLE_CEILING, "peak RSS and CPU time cannot be measured on this machine"
                        + " (the launch helper is unavailable; the warning above says why: no C compiler, or a helper cache that is not"
                        + " writable or is mounted noexec), so no envelope can be recorded; fix that and retry");
            }
        }
        Map<Ceiling, Long> worst = new EnumMap<>(Ceiling.class);
        for (Ceiling ceiling : Ceiling.values()) {
            Long max = null;
            for (EnvelopeRun run : runs) {
                Long value = ceiling.figure(run);
                if (value != null) {
                    max = max == null ? value : Math.max(max, value);
                }
            }
            if (max != null) {
                worst.put(ceiling, max);
            }
        }
        Map<Ceiling, Long> ceilings = new EnumMap<>(Ceiling.class);
        ceilings.put(Ceiling.RSS, slack.rssCeiling(worst.get(Ceiling.RSS)));
        ceilings.put(Ceiling.USER_CPU, slack.cpuCeiling(worst.get(Ceiling.USER_CPU)));
        // The user/system split is the kernel's tick sampling, which the program steers (sitting in a system call
        // whenever a tick is due hides its user time as system time); their total is exact. A ceiling on each
        // leaves no side to move the time to.
        ceilings.put(Ceiling.SYS_CPU, slack.cpuCeiling(worst.get(Ceiling.SYS_CPU)));
        // max_rss_kb is the largest process as wait4 reports it, and a hostile tree can keep pages out of that
        // (a child the kernel reaps whose memory another process faulted in); the memory cgroup's peak counts them
        // whoever holds them. Recorded wherever every run measured it, with the slack of the per-process peak.
        if (runs.stream().allMatch(run -> run.treeRssKb() != null)) {
            ceilings.put(Ceiling.TREE_RSS, slack.rssCeiling(worst.get(Ceiling.TREE_RSS)));
        }
        String notes = "ceilings = worst of " + runs.size() + " baseline run" + (runs.size() == 1 ? "" : "s")
                + " plus the slack below; recorded by patchgrade on " + host.className()
                + ". Re-record when the host class, the compiler or the fixture changes.";
        return new EnvelopeRecording(List.copyOf(cmd), timeoutSeconds, ceilings, worst, List.copyOf(runs), slack, host, toolchain, notes,
                null, 0);
    }

    /**
     * This recording with {@code max_instructions} = the counted instructions ({@code measured}) times
     * {@code 1 + slackPercent/100}, rounded up, and the counter that took the count.
     */
    public EnvelopeRecording withInstructions(InstructionCount count, int slackPercent) {
        if (slackPercent < 0) {
            throw PatchgradeException.badParameter(Setting.INSTRUCTION_SLACK_PERCENT, "must not be negative (found " + slackPercent + ")");
        }
        Map<Ceiling, Long> newCeilings = new EnumMap<>(ceilings);
        newCeilings.put(Ceiling.INSTRUCTIONS, Slack.apply(count.value(), slackPercent, 0));
        Map<Ceiling, Long> newWorst = new EnumMap<>(worst);
        newWorst.put(Ceiling.INSTRUCTIONS, count.value());
        String countedNotes = notes + " max_instructions = instructions counted by " + count.method() + " in a separate run plus "
                + slackPercent + "%.";
        return new EnvelopeRecording(cmd, timeoutSeconds, newCeilings, newWorst, runs, slack, host, toolchain, countedNotes,
                count.method(), slackPercent);
    }

    /** This recording without {@code max_instructions}, its notes saying why: the counted run did other work than the native runs. */
    public EnvelopeRecording withoutInstructions(InstructionCount diverged) {
        String why = notes + " No max_instructions: the run counted by " + diverged.method() + " printed something else than the native "
                + "runs (a program that prints its own timings does), so its count was of other work; make the output the same every "
                + "run and re-record to grade instructions.";
        return new EnvelopeRecording(cmd, timeoutSeconds, ceilings, worst, runs, slack, host, toolchain, why, null, 0);
    }

    static String describe(EnvelopeRun run) {
        if (run.timedOut()) {
            return "timed out";
        }
        if (run.outputLimited()) {
            return "output over the cap";
        }
        if (run.signal() != null) {
            return "killed by " + run.signal();
        }
        return "exit " + run.exitCode();
    }
}
