package dev.patchgrade.core.grade;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class BuildOutcomeTest {
    private static final GoalSettings SETTINGS = new GoalSettings("digest", "plain", Path.of("/p/target/patchgrade-reports"), Path.of("/p/target"),
            Path.of("/p"), Map.of());

    @Test
    void theMessageCountsEveryFailureListsTheFirstAndSaysHowManyItDoesNotList() {
        List<String> kept = IntStream.range(0, GoalResult.LINES_KEPT).mapToObj(i -> "case-" + i + ": stdout_sha256").toList();
        String message = BuildOutcome.failureMessage(SETTINGS, new GoalResult(kept, 2_500, null, "stdout_sha256"));
        assertThat(message.lines().findFirst().orElseThrow())
                .startsWith("patchgrade digest (plain): 2500 graded item(s) broke an oracle, worst: stdout_sha256; see ");
        assertThat(message.lines().filter(l -> l.startsWith("  case-"))).containsExactly(
                kept.subList(0, BuildOutcome.LINES_LISTED).stream().map(line -> "  " + line).toArray(String[]::new));
        assertThat(message.lines().reduce((a, b) -> b).orElseThrow()).isEqualTo("  ... and 2490 more, listed in the reports");
    }

    @Test
    void aFewFailuresAreAllListedWithNoMoreLine() {
        String message = BuildOutcome.failureMessage(SETTINGS, new GoalResult(List.of("a: rss", "b: rss"), null, "rss"));
        assertThat(message).contains(": 2 graded item(s) broke an oracle, worst: rss;").endsWith("  b: rss").doesNotContain("more, listed");
    }
}
