package dev.patchgrade.core.digest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.launch.StartFailure;
import dev.patchgrade.core.launch.Usage;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SanitizerClassTest {
    private static LaunchResult exited(int code) {
        return new LaunchResult(null, code, null, null, false, false, Usage.UNAVAILABLE, 1000, null, null);
    }

    private static LaunchResult signaled(String name) {
        return new LaunchResult(null, null, name, 6, false, false, Usage.UNAVAILABLE, 1000, null, null);
    }

    private static SanitizerClass.Markers markers(@TempDir Path dir, String stderr) throws Exception {
        Path file = Files.createTempFile(dir, "err", ".txt");
        Files.writeString(file, stderr);
        return SanitizerClass.Markers.scan(file);
    }

    @Test
    void findsUbsanAndAsanReports(@TempDir Path dir) throws Exception {
        String ubsan = "parse.cpp:12:33: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'\n";
        assertThat(SanitizerClass.classify(exited(1), markers(dir, ubsan))).isEqualTo(SanitizerClass.UBSAN);
        String asan = "=================================================================\n==4242==ERROR: AddressSanitizer: heap-buffer-overflow on address\n";
        assertThat(SanitizerClass.classify(signaled("SIGABRT"), markers(dir, asan))).isEqualTo(SanitizerClass.ASAN);
        String leak = "==1==ERROR: LeakSanitizer: detected memory leaks\n";
        assertThat(SanitizerClass.classify(exited(23), markers(dir, leak))).isEqualTo(SanitizerClass.ASAN);
    }

    @Test
    void findsAMarkerSplitAcrossReadBlocks(@TempDir Path dir) throws Exception {
        String padded = "x".repeat((1 << 16) - 5) + "runtime error: boom\n";
        assertThat(markers(dir, padded).ubsan()).isTrue();
    }

    @Test
    void ordinaryDiagnosticsAreClean(@TempDir Path dir) throws Exception {
        assertThat(SanitizerClass.classify(exited(1), markers(dir, "WARN: rounding 1.005\nerror: bad input\n"))).isEqualTo(SanitizerClass.CLEAN);
    }

    @Test
    void signalsAreCrashesAndTimeoutsWin() {
        assertThat(SanitizerClass.classify(signaled("SIGSEGV"), SanitizerClass.Markers.NONE)).isEqualTo(SanitizerClass.CRASH);
        LaunchResult timedOut = new LaunchResult(null, null, "SIGKILL", 9, true, false, Usage.UNAVAILABLE, 5000, null, null);
        assertThat(SanitizerClass.classify(timedOut, new SanitizerClass.Markers(true, true))).isEqualTo(SanitizerClass.TIMEOUT);
    }

    @Test
    void aBinaryThatCannotStartIsUnavailableNeverClean() {
        LaunchResult missing = LaunchResult.couldNotStart(new StartFailure(StartFailure.Kind.NOT_FOUND, "x.ubsan", null));
        assertThat(SanitizerClass.classify(missing, SanitizerClass.Markers.NONE)).isEqualTo(SanitizerClass.UNAVAILABLE);
        assertThat(SanitizerClass.UNAVAILABLE.wireName()).isNotEqualTo(SanitizerClass.CLEAN.wireName());
    }

    @Test
    void wireNamesRoundTrip() {
        for (SanitizerClass c : SanitizerClass.values()) {
            assertThat(SanitizerClass.fromWire(c.wireName())).contains(c);
        }
        assertThat(SanitizerClass.fromWire("msan")).isEmpty();
    }
}
