package dev.patchgrade.core.count;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.patchgrade.core.PatchgradeException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The choice of counter, with the kernel's answer simulated: this is how a machine without hardware
 * counters (a VM) or with perf_event_open forbidden behaves, wherever the test runs.
 */
class InstructionCountersTest {
    private static final Supplier<PerfCounter.Probe> NO_PMU = () -> new PerfCounter.Probe(false, PerfCounter.explain(2));
    private static final Supplier<PerfCounter.Probe> PMU = () -> new PerfCounter.Probe(true, null);
    private static final Optional<Path> VALGRIND = Optional.of(Path.of("/usr/bin/valgrind"));

    @Test
    void autoFallsBackToValgrindWhenTheCounterIsMissing() {
        InstructionCounters.Choice choice = InstructionCounters.choose(CounterMode.AUTO, null, NO_PMU, VALGRIND);
        assertThat(choice.method()).isEqualTo("valgrind");
        assertThat(((ValgrindCounter) choice.counter()).executable()).isEqualTo(Path.of("/usr/bin/valgrind"));
    }

    @Test
    void autoWithNeitherCounterIsUnavailableAndSaysWhyForBoth() {
        InstructionCounters.Choice choice = InstructionCounters.choose(CounterMode.AUTO, null, NO_PMU, Optional.empty());
        assertThat(choice.available()).isFalse();
        assertThat(choice.unavailable()).contains("no hardware instruction counter").contains("valgrind is not on PATH");
    }

    @Test
    void autoPrefersHardwareCountersWhereTheKernelAllows() {
        assertThat(InstructionCounters.choose(CounterMode.AUTO, null, PMU, VALGRIND).method()).isEqualTo("perf");
        assertThat(InstructionCounters.choose(CounterMode.AUTO, "perf", PMU, VALGRIND).method()).isEqualTo("perf");
    }

    @Test
    void autoKeepsTheRecordedValgrindSoThatNoDriftIsMadeUp() {
        assertThat(InstructionCounters.choose(CounterMode.AUTO, "valgrind", PMU, VALGRIND).method()).isEqualTo("valgrind");
        assertThat(InstructionCounters.choose(CounterMode.AUTO, "valgrind", PMU, Optional.empty()).method()).isEqualTo("perf");
    }

    @Test
    void anExplicitPerfThatCannotCountIsAnErrorNamingTheReason() {
        InstructionCounters.Choice choice = InstructionCounters.choose(CounterMode.PERF, null, NO_PMU, VALGRIND);
        assertThat(choice.available()).isFalse();
        assertThatThrownBy(() -> InstructionCounters.require(CounterMode.PERF, choice))
                .isInstanceOf(PatchgradeException.class)
                .hasMessageContaining("instructionCounter=perf cannot count").hasMessageContaining("virtual machine")
                .extracting(e -> ((PatchgradeException) e).errorName()).isEqualTo("counter_unavailable");
    }

    @Test
    void aRefusalNamesTheSysctl() {
        assertThat(PerfCounter.explain(13)).contains("kernel.perf_event_paranoid");
    }

    @Test
    void explicitValgrindWithoutValgrindIsAnErrorAndNoneCountsNothing() {
        assertThatThrownBy(() -> InstructionCounters.require(CounterMode.VALGRIND,
                InstructionCounters.choose(CounterMode.VALGRIND, null, PMU, Optional.empty())))
                .hasMessageContaining("valgrind is not on PATH");
        InstructionCounters.Choice none = InstructionCounters.choose(CounterMode.NONE, "valgrind", PMU, VALGRIND);
        assertThat(none.available()).isFalse();
        assertThat(InstructionCounters.require(CounterMode.NONE, none)).isSameAs(none);
    }

    @Test
    void theRealProbeAnswersWithAReasonWhenItCannotCount() {
        PerfCounter.Probe probe = PerfCounter.probe();
        if (probe.available()) {
            assertThat(probe.problem()).isNull();
        } else {
            assertThat(probe.problem()).contains("perf_event_open");
        }
    }

    @Test
    void modesParseAsWrittenInThePom() {
        assertThat(CounterMode.parse(" Valgrind ")).isEqualTo(CounterMode.VALGRIND);
        assertThatThrownBy(() -> CounterMode.parse("papi")).hasMessageContaining("the instructionCounter setting must be auto, perf, valgrind or none");
    }
}
