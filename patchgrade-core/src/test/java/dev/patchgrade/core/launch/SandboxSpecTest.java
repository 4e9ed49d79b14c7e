package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The build's own directory is shown, unless showing it would show the home directory again. */
class SandboxSpecTest {
    private final String home = System.getProperty("user.home");
    private final String build = Path.of(System.getProperty("user.dir")).toAbsolutePath().normalize().toString();

    @AfterEach
    void restoreHome() {
        System.setProperty("user.home", home);
    }

    private List<String> shownPaths() {
        List<String> args = SandboxSpec.of(SandboxSpec.Mode.REQUIRED).helperArguments();
        return java.util.stream.IntStream.range(0, args.size() - 1).filter(i -> args.get(i).equals("--ro")).mapToObj(i -> args.get(i + 1))
                .toList();
    }

    @Test
    void theBuildDirectoryIsShown() {
        System.setProperty("user.home", "/nonexistent-home-of-nobody");
        assertThat(shownPaths()).contains(build);
    }

    @Test
    void aBuildRunFromTheHomeDirectoryDoesNotShowHomeAgain() {
        System.setProperty("user.home", build);
        assertThat(shownPaths()).doesNotContain(build);
        System.setProperty("user.home", build + "/inside");
        assertThat(shownPaths()).as("an ancestor of home is not shown either").doesNotContain(build);
    }
}
