package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The view as the helper is told to build it: an allow-list of binds, the links on the way to them, and hides inside. */
class SandboxSpecTest {
    @TempDir
    Path dir;

    private static List<String> after(List<String> args, String flag) {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < args.size() - 1; i++) {
            if (args.get(i).equals(flag)) {
                values.add(args.get(i + 1));
            }
        }
        return values;
    }

    @Test
    void theSystemAloneIsShownWhenNothingIsGiven() {
        List<String> args = SandboxSpec.of(SandboxSpec.Mode.REQUIRED).helperArguments();
        assertThat(after(args, "--ro")).contains("/usr", "/etc").noneMatch(path -> path.startsWith("/home") || path.startsWith("/var")
                || path.startsWith("/tmp") || path.startsWith("/opt") || path.startsWith("/srv") || path.startsWith("/root"));
        assertThat(after(args, "--ro")).doesNotContain(System.getProperty("user.dir"), System.getProperty("user.home"));
        if (Files.isSymbolicLink(Path.of("/bin"))) {
            assertThat(after(args, "--link")).as("merged /usr: /bin is made again as the link it is").contains("/bin");
        }
    }

    @Test
    void aPathInsideAShownDirectoryIsNotBoundTwiceAndAbsentPathsAreLeftOut() throws Exception {
        Path inside = Files.createDirectories(dir.resolve("target/bin"));
        SandboxSpec spec = new SandboxSpec(SandboxSpec.Mode.REQUIRED, List.of(inside, dir, dir.resolve("absent")), List.of(), List.of());
        List<String> ro = after(spec.helperArguments(), "--ro");
        assertThat(ro).contains(dir.toRealPath().toString()).doesNotContain(inside.toRealPath().toString())
                .noneMatch(path -> path.endsWith("absent"));
    }

    @Test
    void aLinkedPathIsBoundWhereItIsAndTheLinkIsMadeAgain() throws Exception {
        Path real = Files.createDirectories(dir.resolve("data/build-1"));
        Files.writeString(real.resolve("prog"), "x");
        Path link = Files.createSymbolicLink(dir.resolve("build"), Path.of("data/build-1"));
        SandboxSpec spec = new SandboxSpec(SandboxSpec.Mode.REQUIRED, List.of(link.resolve("prog")), List.of(), List.of());
        List<String> args = spec.helperArguments();
        assertThat(after(args, "--ro")).contains(real.toRealPath().resolve("prog").toString());
        int at = args.indexOf(dir.toRealPath().resolve("build").toString());
        assertThat(at).as("the link is made again").isPositive();
        assertThat(args.get(at - 1)).isEqualTo("--link");
        assertThat(args.get(at + 1)).isEqualTo("data/build-1");
    }

    @Test
    void hidesAreGivenOnlyInsideWhatIsShown() throws Exception {
        Path shown = Files.createDirectories(dir.resolve("project"));
        Path oracle = Files.writeString(shown.resolve("cases.jsonl"), "{}");
        Path elsewhere = Files.writeString(Files.createDirectories(dir.resolve("other")).resolve("gold.json"), "{}");
        SandboxSpec spec = new SandboxSpec(SandboxSpec.Mode.REQUIRED, List.of(shown), List.of(), List.of(oracle, elsewhere));
        assertThat(after(spec.helperArguments(), "--hide")).containsExactly(oracle.toRealPath().toString());
        assertThat(spec.holds(oracle)).isTrue();
        assertThat(spec.holds(elsewhere)).as("a directory beside the project is not in the view").isFalse();
    }

    @Test
    void whatTheViewMakesItselfIsNeverBoundFromTheHost() {
        SandboxSpec spec = new SandboxSpec(SandboxSpec.Mode.REQUIRED, List.of(Path.of("/proc/self/fd/0"), Path.of("/dev/stdin"), Path.of("/")),
                List.of(), List.of());
        assertThat(after(spec.helperArguments(), "--ro")).noneMatch(path -> path.startsWith("/proc") || path.startsWith("/dev") || path.equals("/"));
    }

    @Test
    void writablePathsAreBoundWritable() throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        SandboxSpec spec = new SandboxSpec(SandboxSpec.Mode.REQUIRED, List.of(), List.of(out), List.of());
        assertThat(after(spec.helperArguments(), "--rw")).containsExactly(out.toRealPath().toString());
        assertThat(spec.holds(out.resolve("result"))).isFalse();
        assertThat(spec.holds(out)).isTrue();
    }
}
