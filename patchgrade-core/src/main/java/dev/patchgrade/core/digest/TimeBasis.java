package dev.patchgrade.core.digest;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.launch.Usage;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * What a case's time bucket measures. {@code cpu}: the user + system CPU time of the case's whole process tree,
 * which a busy machine moves far less than wall time (the tree's CPU is the same work, whoever else holds the
 * cores; the run-queue delay that load adds is not in it). {@code wall}: the wall time less the run-queue delay
 * of the command's own process, which a wrapper script defeats (the shell waits, its child queues). The timeout
 * is wall time whatever the basis.
 */
public enum TimeBasis {
    CPU("cpu"), WALL("wall");

    public static final String DEFAULT = "cpu";

    private final String wireName;

    TimeBasis(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    @Override
    public String toString() {
        return wireName;
    }

    public static TimeBasis parse(String value) {
        return named(value).orElseThrow(() -> PatchgradeException.badParameter(Setting.TIME_BASIS, "must be cpu (the default: user + "
                + "system CPU time of the case's process tree, which load hardly moves) or wall (found \"" + value + "\")"));
    }

    /** The basis a gold file names. */
    static Optional<TimeBasis> named(String value) {
        String wanted = value == null ? "" : value.strip().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(b -> b.wireName.equals(wanted)).findFirst();
    }

    /** Whether a run's figures hold this basis: CPU time needs the launch helper's accounting. */
    boolean measured(LaunchResult run) {
        Usage usage = run.usage();
        return this == WALL || usage != null && usage.userMicros() != null && usage.systemMicros() != null;
    }

    /**
     * The run's time in milliseconds on this basis. Only for a run that {@link #measured} it: CPU figures that are
     * missing are never read as zero.
     */
    long millis(LaunchResult run) {
        if (this == WALL) {
            return run.loadFreeMillis();
        }
        if (!measured(run)) {
            throw new IllegalStateException("no CPU figures for this run");
        }
        return (run.usage().userMicros() + run.usage().systemMicros()) / 1000;
    }

    /** For messages: "CPU time" or "wall time". */
    String describe() {
        return this == CPU ? "CPU time" : "wall time";
    }

    static PatchgradeException unknownInGold(java.nio.file.Path file, String found) {
        return new PatchgradeException(ErrorName.MALFORMED_GOLD, file + ": key \"time_basis\" is \"" + found + "\"; it must be cpu or wall, "
                + "the time that time_bucket and time_ms measure");
    }
}
