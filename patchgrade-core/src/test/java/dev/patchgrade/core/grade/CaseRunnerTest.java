package dev.patchgrade.core.grade;

import dev.patchgrade.core.ErrorName;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class CaseRunnerTest {
    private static GradeLog collecting(List<String> lines) {
        return new GradeLog() {
            @Override public void info(String message) { lines.add(message); }
            @Override public void warn(String message) { lines.add(message); }
            @Override public void debug(String message) {}
        };
    }

    @Test
    void returnsResultsInCaseOrderWhateverFinishesFirst() {
        List<Integer> cases = IntStream.range(0, 40).boxed().toList();
        List<Integer> results = CaseRunner.runAll(cases, 4, n -> {
            sleep((40 - n) % 7);
            return n * 10;
        }, r -> false, GradeLog.SILENT);
        assertThat(results).isEqualTo(cases.stream().map(n -> n * 10).toList());
    }

    @Test
    void reportsProgressAtTheIntervalWithFailuresSoFarNotALinePerCase() {
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        long start = System.nanoTime();
        CaseRunner.runAll(IntStream.range(0, 20).boxed().toList(), 1, n -> {
            sleep(25);
            return n;
        }, n -> n % 5 == 0, collecting(lines), Duration.ofMillis(120));
        long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
        // The sleeps make the run last at least 500 ms, so a line is due; a busy machine may stretch the run, and
        // then allows more lines, but never more than one per interval.
        assertThat(lines).isNotEmpty().hasSizeLessThanOrEqualTo((int) (elapsedMillis / 120) + 1);
        assertThat(lines).allMatch(line -> line.matches("progress: \\d+/20 cases done, \\d+ failing so far"));
    }

    @Test
    void aSetupErrorInOneCaseStopsTheRunWithThatError() {
        assertThatThrownBy(() -> CaseRunner.runAll(List.of(1, 2, 3), 2, n -> {
            if (n == 2) {
                throw new PatchgradeException(ErrorName.COULD_NOT_START, "bin/x: not found");
            }
            return n;
        }, r -> false, GradeLog.SILENT)).isInstanceOf(PatchgradeException.class).hasMessage("bin/x: not found");
    }

    @Test
    void refusesZeroWorkers() {
        assertThatThrownBy(() -> CaseRunner.runAll(List.of(1), 0, n -> n, r -> false, GradeLog.SILENT))
                .hasMessageContaining("the parallel setting must be at least 1");
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
