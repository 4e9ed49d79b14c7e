package dev.patchgrade.core.envelope;

/**
 * The headroom a recording adds to what it measured, written into the envelope so every ceiling
 * can be explained from the file: {@code ceiling = ceil(measured * (1 + percent/100)) + absolute}.
 */
public record Slack(int rssPercent, long rssKb, int cpuPercent, long cpuMicros) {
    public static final Slack DEFAULT = new Slack(30, 1024, 50, 50_000);

    public Slack {
        if (rssPercent < 0 || rssKb < 0 || cpuPercent < 0 || cpuMicros < 0) {
            throw new dev.patchgrade.core.PatchgradeException(dev.patchgrade.core.ErrorName.BAD_PARAMETER, "slack must not be negative (rssSlackPercent="
                    + rssPercent + ", rssSlackKb=" + rssKb + ", cpuSlackPercent=" + cpuPercent + ", cpuSlackUs=" + cpuMicros + ")");
        }
    }

    public long rssCeiling(long measuredKb) {
        return apply(measuredKb, rssPercent, rssKb);
    }

    /**
     * The ceiling of a CPU figure, user or system: both take the CPU slack. The kernel splits a run's exact
     * CPU time between the two by sampling the mode each timer tick lands in, which a program can steer.
     */
    public long cpuCeiling(long measuredMicros) {
        return apply(measuredMicros, cpuPercent, cpuMicros);
    }

    static long apply(long measured, int percent, long absolute) {
        long scaled = Math.multiplyExact(measured, 100L + percent);
        return Math.addExact((scaled + 99) / 100, absolute);
    }
}
