package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.patchgrade.core.Suggestions;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A step of the helper that must not fail ends it with one line naming the step and the errno, which the JVM shows. */
class HelperFatalTest {
    @TempDir
    Path dir;

    @Test
    void aHelperThatCannotOpenItsPidFileSaysSoInsteadOfReady() throws Exception {
        NativeHelper.Located located = NativeHelper.locate(NativeHelperProbe.debugTo(line -> { }), Suggestions.PLAIN);
        assertThat(located.problem()).isNull();
        try (Watchdog watchdog = new Watchdog("fatal-test")) {
            assertThatThrownBy(() -> HelperProcess.start(located.binary(), dir.resolve("absent"), "s", List.of(), watchdog))
                    .hasMessageContaining("fatal opening the pid file " + dir.resolve("absent").resolve("s.pid"))
                    .hasMessageContaining("No such file or directory (errno 2)");
        }
    }
}
