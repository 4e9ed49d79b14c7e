package dev.patchgrade.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.patchgrade.core.classify.ReferenceSidecar;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The error names reports carry: SPEC's exactly as SPEC spells them, one name per failure. */
class ErrorNameTest {
    @Test
    void everyNameSpecFixesIsSpelledAsSpecSpellsIt() {
        List<String> names = Arrays.stream(ErrorName.values()).map(ErrorName::wireName).toList();
        assertThat(names).contains("oracle_tampered", "case_set_drift", "reference_identity_drift", "toolchain_drift", "counter_drift",
                "sandbox_unavailable", "build_in_progress", "launcher_failed", "could_not_start");
        assertThat(names).allMatch(name -> name.matches("[a-z]+(_[a-z]+)*")).doesNotHaveDuplicates();
    }

    @Test
    void aFailureToWriteHasOneName() {
        assertThat(Arrays.stream(ErrorName.values()).map(ErrorName::wireName)).contains("write_failed").doesNotContain("io_error");
    }

    @Test
    void anUnreadableReferenceIsAnUnreadableOracleNotAProgramThatCouldNotStart(@TempDir Path dir) {
        // A directory cannot be read as a file, even by root.
        assertThatThrownBy(() -> ReferenceSidecar.sha256(dir)).isInstanceOfSatisfying(PatchgradeException.class,
                e -> assertThat(e.error()).isEqualTo(ErrorName.ORACLE_UNREADABLE));
    }
}
