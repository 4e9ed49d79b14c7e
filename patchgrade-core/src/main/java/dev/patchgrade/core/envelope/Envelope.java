package dev.patchgrade.core.envelope;

import dev.patchgrade.core.host.HostInfo;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A committed envelope: the command, its timeout and the ceilings present in the file, with the
 * host class and toolchain it was recorded on when the file has them, and the counter
 * ({@code perf} or {@code valgrind}) that measured {@code max_instructions}.
 */
public record Envelope(
        Path file, List<String> cmd, double timeoutSeconds, Map<Ceiling, Long> ceilings, String notes,
        HostInfo host, String toolchain, String instructionCounter) {

    public Envelope {
        cmd = cmd == null ? List.of() : List.copyOf(cmd);
        ceilings = Map.copyOf(ceilings);
    }

    /** An envelope that records no instruction counter (written by hand, or before counters existed). */
    public Envelope(Path file, List<String> cmd, double timeoutSeconds, Map<Ceiling, Long> ceilings, String notes, HostInfo host,
            String toolchain) {
        this(file, cmd, timeoutSeconds, ceilings, notes, host, toolchain, null);
    }
}
