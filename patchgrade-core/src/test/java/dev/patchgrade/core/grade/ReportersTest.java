package dev.patchgrade.core.grade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReportersTest {
    /** Writes what it was given into one shared list, under its name. */
    private record Named(String name, List<String> seen) implements CaseReporter<String, Integer> {
        @Override
        public void row(String row) {
            seen.add(name + " row " + row);
        }

        @Override
        public void finish(Integer result) {
            seen.add(name + " finish " + result);
        }

        @Override
        public void close() {
            seen.add(name + " close");
        }
    }

    /** Fails to close with its message. */
    private record Failing(String message) implements CaseReporter<String, Integer> {
        @Override
        public void row(String row) {}

        @Override
        public void finish(Integer result) {}

        @Override
        public void close() {
            throw new IllegalStateException(message);
        }
    }

    @Test
    void eachRowReachesEveryReporterInTheirOrderBeforeTheNextRowDoes() {
        List<String> seen = new ArrayList<>();
        try (Reporters<String, Integer> reporters = new Reporters<>(List.of(new Named("xml", seen), new Named("console", seen)))) {
            reporters.row("a");
            reporters.row("b");
            reporters.finish(2);
        }
        assertThat(seen).containsExactly("xml row a", "console row a", "xml row b", "console row b", "xml finish 2", "console finish 2",
                "xml close", "console close");
    }

    @Test
    void everyReporterIsClosedEvenAfterOneFailsToCloseAndTheFirstFailureIsThrown() {
        List<String> seen = new ArrayList<>();
        Reporters<String, Integer> reporters = new Reporters<>(List.of(new Failing("cannot remove the body"), new Named("console", seen), new Failing("second")));
        assertThatThrownBy(reporters::close).hasMessage("cannot remove the body")
                .satisfies(e -> assertThat(e.getSuppressed()).extracting(Throwable::getMessage).containsExactly("second"));
        assertThat(seen).containsExactly("console close");
    }
}
