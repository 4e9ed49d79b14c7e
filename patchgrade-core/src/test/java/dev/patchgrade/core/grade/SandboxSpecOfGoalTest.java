package dev.patchgrade.core.grade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.launch.SandboxSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What one launcher of a goal hides, from the module's oracles and the executables it runs. */
class SandboxSpecOfGoalTest {
    private static final Path BASE = Path.of("/work/shop/billing");
    private static final Path REFERENCE = BASE.resolve("target/bin/frozen/score_lookup");
    private static final Path CANDIDATE = BASE.resolve("target/bin/score_lookup");

    private static GoalSettings settings() {
        SandboxSettings sandbox = new SandboxSettings(SandboxSpec.Mode.REQUIRED, List.of(BASE.resolve("src/test/patchgrade"), REFERENCE), BASE,
                List.of(), List.of(), List.of());
        return new GoalSettings("digest", "cases", BASE.resolve("target/patchgrade-reports"), BASE.resolve("target/patchgrade"), BASE, Map.of())
                .withSandbox(sandbox);
    }

    @Test
    void aFrozenReferenceOfTheModuleIsHiddenFromEveryOtherLaunchersChildren() {
        SandboxSpec spec = settings().sandboxSpec(List.of(), List.of(CANDIDATE));
        assertThat(spec.oracles()).contains(REFERENCE, BASE.resolve("src/test/patchgrade"));
    }

    @Test
    void theLauncherThatRunsTheReferenceSeesIt() {
        // The same path as the three-column goal resolves it, spelled another way.
        SandboxSpec spec = settings().sandboxSpec(List.of(), List.of(BASE.resolve("target/bin/../bin/frozen/score_lookup")));
        assertThat(spec.oracles()).doesNotContain(REFERENCE).contains(BASE.resolve("src/test/patchgrade"));
        assertThat(spec.shown()).contains(BASE.resolve("target/bin/../bin/frozen/score_lookup"));
    }
}
