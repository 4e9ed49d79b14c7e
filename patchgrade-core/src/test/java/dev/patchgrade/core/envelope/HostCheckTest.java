package dev.patchgrade.core.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.patchgrade.core.host.HostInfo;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HostCheckTest {
    private static final HostInfo EPYC = new HostInfo("linux", "amd64", "AMD EPYC", 2, "linux-amd64-amd-epyc-2c");
    private static final HostInfo LAPTOP = new HostInfo("mac-os-x", "aarch64", "Apple M2", 8, "mac-os-x-aarch64-apple-m2-8c");

    private static Envelope recordedOn(HostInfo host, String toolchain) {
        return new Envelope(Path.of("e.json"), List.of(), 5, Map.of(Ceiling.RSS, 1L, Ceiling.USER_CPU, 1L), null, host, toolchain);
    }

    @Test
    void sameClassAndToolchainHaveNoDifference() {
        assertThat(HostCheck.differences(recordedOn(EPYC, "g++ 12"), EPYC, "g++ 12")).isEmpty();
    }

    @Test
    void namesWhatWasRecordedAndWhatWasFound() {
        assertThat(HostCheck.differences(recordedOn(EPYC, "g++ 12"), LAPTOP, "g++ 13")).containsExactly(
                "host class: recorded \"linux-amd64-amd-epyc-2c\", this host is \"mac-os-x-aarch64-apple-m2-8c\"",
                "toolchain: recorded \"g++ 12\", configured compiler is \"g++ 13\"");
    }

    @Test
    void nothingRecordedOrNoCompilerConfiguredIsNoDifference() {
        assertThat(HostCheck.differences(recordedOn(null, null), LAPTOP, "g++ 13")).isEmpty();
        assertThat(HostCheck.differences(recordedOn(EPYC, "g++ 12"), EPYC, null)).isEmpty();
    }

    @Test
    void aUserClassNameOverridesTheDetectedOne() {
        HostInfo named = HostInfo.detect("ci-large");
        assertThat(named.className()).isEqualTo("ci-large");
        assertThat(HostCheck.differences(recordedOn(new HostInfo("x", "y", "z", 1, "ci-large"), null), named, null)).isEmpty();
    }

    @Test
    void derivesAReadableClassName() {
        assertThat(HostInfo.derivedClass("linux", "amd64", "Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz", 2))
                .isEqualTo("linux-amd64-intel-xeon-e5-2680-v4-2c");
    }

    @Test
    void parsesTheParameter() {
        assertThat(HostCheck.parse(" Warn ")).isEqualTo(HostCheck.WARN);
        assertThatThrownBy(() -> HostCheck.parse("sometimes")).hasMessageContaining("the hostCheck setting must be fail, warn or ignore");
    }
}
