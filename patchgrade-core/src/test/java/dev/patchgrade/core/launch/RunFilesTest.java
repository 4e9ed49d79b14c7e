package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run is output-limited when a stream filled the cap, when the kernel said SIGXFSZ, or when the launcher says it stopped the run there. */
class RunFilesTest {
    @TempDir
    Path scratch;

    private LaunchResult finish(String signal, boolean stoppedAtCap) throws Exception {
        LaunchRequest request = LaunchRequest.of(List.of("/bin/true")).withOutputLimit(1 << 20);
        RunFiles files = RunFiles.create(scratch, "slot", request, false);
        // Short output: only the launcher's word (or the kernel's) can say the cap was reached.
        Files.writeString(files.stdout, "short\n");
        Files.writeString(files.stderr, "");
        return files.finish(request, 143, signal, null, false, stoppedAtCap, Usage.UNAVAILABLE, 1000, 0, () -> { });
    }

    @Test
    void aLauncherThatStoppedTheRunAtTheCapSaysSoExplicitly() throws Exception {
        LaunchResult stopped = finish(null, true);
        assertThat(stopped.outputLimited()).isTrue();
        assertThat(stopped.signal()).as("the flag is no signal").isNull();
        assertThat(finish(null, false).outputLimited()).isFalse();
    }

    @Test
    void theKernelsSigxfszStillMeansTheCap() throws Exception {
        assertThat(finish("SIGXFSZ", false).outputLimited()).isTrue();
        assertThat(finish("SIGTERM", false).outputLimited()).isFalse();
    }
}
