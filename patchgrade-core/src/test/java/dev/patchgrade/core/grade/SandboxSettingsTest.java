package dev.patchgrade.core.grade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Suggestions;
import dev.patchgrade.core.launch.SandboxSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An execution's sandbox, resolved from its configuration: the build's modules read once, and only where something is hidden. */
class SandboxSettingsTest {
    @TempDir
    Path base;

    private final AtomicInteger reads = new AtomicInteger();

    /** A reactor whose sibling module keeps its gold at {@code gold} and writes its streams to {@code output}, counted each time it is read. */
    private Supplier<ReactorOracles> reactor(Path gold, Path output) {
        return () -> {
            reads.incrementAndGet();
            return new ReactorOracles(List.of(gold, output), List.of(output));
        };
    }

    private SandboxSettings resolve(String mode, Supplier<ReactorOracles> reactor) {
        return SandboxSettings.resolve(mode, reactor, base, List.of(), List.of(), List.of());
    }

    @Test
    void theReactorIsReadOnceAndTheOutputDirectoriesItNamesAreCreated() {
        Path gold = base.resolve("billing/src/test/patchgrade/gold");
        Path output = base.resolve("billing/target/patchgrade");
        SandboxSettings settings = resolve("auto", reactor(gold, output));
        assertThat(reads).as("one reading of the reactor per execution").hasValue(1);
        assertThat(output).as("absent, it could not be hidden while a sibling writes it").isDirectory();
        assertThat(settings.moduleOracles()).containsExactly(gold, output);
        assertThat(settings.mode()).isEqualTo(SandboxSpec.Mode.AUTO);
        assertThat(settings.projectBase()).isEqualTo(base);
    }

    @Test
    void withTheSandboxOffNothingIsReadOrCreated() {
        Path output = base.resolve("billing/target/patchgrade");
        SandboxSettings settings = resolve("off", reactor(base.resolve("gold"), output));
        assertThat(reads).hasValue(0);
        assertThat(Files.exists(output)).isFalse();
        assertThat(settings.moduleOracles()).isEmpty();
        assertThat(settings.mode()).isEqualTo(SandboxSpec.Mode.OFF);
    }

    @Test
    void anUnknownModeIsAnErrorNamingTheSettingTheValueAndTheChoices() {
        PatchgradeException error = catchThrowableOfType(PatchgradeException.class,
                () -> resolve("sometimes", reactor(base.resolve("gold"), base.resolve("out"))));
        assertThat(error.error()).isEqualTo(ErrorName.BAD_PARAMETER);
        assertThat(error.message(Suggestions.PLAIN)).contains("sandbox", "must be auto, required or off", "found \"sometimes\"",
                "sandbox=auto");
        assertThat(reads).as("nothing is read for a configuration that is refused").hasValue(0);
    }
}
