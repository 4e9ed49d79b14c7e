package dev.patchgrade.core.envelope;

import java.util.function.Function;

/** A ceiling an envelope may hold, in the order its reason is reported. */
public enum Ceiling {
    RSS("max_rss_kb", "rss", "KB", "peak RSS", EnvelopeRun::maxRssKb),
    TREE_RSS("max_tree_rss_kb", "tree_rss", "KB", "tree memory peak", EnvelopeRun::treeRssKb),
    /** Counted in a separate run (see {@code dev.patchgrade.core.count}), so no graded run holds the figure. */
    INSTRUCTIONS("max_instructions", "instructions", "", "instructions", run -> null),
    USER_CPU("max_user_us", "user_cpu", "us", "user CPU", EnvelopeRun::userMicros),
    SYS_CPU("max_sys_us", "sys_cpu", "us", "system CPU", EnvelopeRun::systemMicros),
    WALL("max_wall_ms", "wall", "ms", "wall time", run -> run.wallMillis()),
    MINFLT("max_minflt", "minflt", "", "minor faults", EnvelopeRun::minorFaults),
    MAJFLT("max_majflt", "majflt", "", "major faults", EnvelopeRun::majorFaults),
    INBLOCK("max_inblock", "inblock", "", "block inputs", EnvelopeRun::blockInputs),
    OUBLOCK("max_oublock", "oublock", "", "block outputs", EnvelopeRun::blockOutputs);

    private final String key;
    private final String reason;
    private final String unit;
    private final String label;
    private final Function<EnvelopeRun, Long> figure;

    Ceiling(String key, String reason, String unit, String label, Function<EnvelopeRun, Long> figure) {
        this.key = key;
        this.reason = reason;
        this.unit = unit;
        this.label = label;
        this.figure = figure;
    }

    /** The envelope file key, e.g. {@code max_rss_kb}. */
    public String key() {
        return key;
    }

    /** The reason name when broken, e.g. {@code rss}. */
    public String reason() {
        return reason;
    }

    public String unit() {
        return unit;
    }

    public String label() {
        return label;
    }

    /** The run's figure for this ceiling, or {@code null} where it was not measured. */
    public Long figure(EnvelopeRun run) {
        return figure.apply(run);
    }

    /** The key of the measured figure in reports: {@code max_rss_kb}, {@code user_us}, ... */
    public String measuredKey() {
        return switch (this) {
            case RSS -> "max_rss_kb";
            case TREE_RSS -> "tree_rss_kb";
            case USER_CPU -> "user_us";
            case SYS_CPU -> "sys_us";
            case WALL -> "wall_ms";
            default -> reason;
        };
    }
}
