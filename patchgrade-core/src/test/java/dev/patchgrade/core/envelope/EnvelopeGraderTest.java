package dev.patchgrade.core.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.patchgrade.core.PatchgradeException;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EnvelopeGraderTest {
    private static final String SHA = "a".repeat(64);

    private static EnvelopeRun run(Integer exit, String signal, boolean timedOut, long rss, long user, long wall) {
        return new EnvelopeRun(exit, signal, timedOut, false, rss, user, 10L, wall, 100L, 0L, 0L, 8L, SHA, "", "");
    }

    private static EnvelopeRun ok(long rss, long user) {
        return run(0, null, false, rss, user, 20);
    }

    private static Envelope envelope(Map<Ceiling, Long> ceilings) {
        return new Envelope(Path.of("envelope.json"), List.of("./driver"), 5, ceilings, null, null, null);
    }

    private static Map<Ceiling, Long> basic(long rss, long user) {
        Map<Ceiling, Long> ceilings = new EnumMap<>(Ceiling.class);
        ceilings.put(Ceiling.RSS, rss);
        ceilings.put(Ceiling.USER_CPU, user);
        return ceilings;
    }

    @Test
    void acceptsRunsUnderEveryCeiling() {
        EnvelopeVerdict verdict = EnvelopeGrader.grade(envelope(basic(9216, 800_000)), List.of(ok(3000, 100_000)), SHA, List.of());
        assertThat(verdict.accepted()).isTrue();
        assertThat(verdict.verdict()).isEqualTo("accept");
        assertThat(verdict.graded()).containsEntry(Ceiling.RSS, 3000L).containsEntry(Ceiling.USER_CPU, 100_000L);
    }

    @Test
    void aFigureEqualToItsCeilingPasses() {
        assertThat(EnvelopeGrader.grade(envelope(basic(3000, 100_000)), List.of(ok(3000, 100_000)), null, List.of()).accepted()).isTrue();
        assertThat(EnvelopeGrader.grade(envelope(basic(2999, 100_000)), List.of(ok(3000, 100_000)), null, List.of()).reasons())
                .containsExactly("rss");
    }

    @Test
    void describesABreachWithBothNumbersAndThePercentOver() {
        EnvelopeVerdict verdict = EnvelopeGrader.grade(envelope(basic(9216, 800_000)), List.of(ok(61_212, 100_000)), null, List.of());
        assertThat(verdict.reasons()).containsExactly("rss");
        assertThat(verdict.breaches()).singleElement().extracting(EnvelopeVerdict.Breach::describe)
                .isEqualTo("rss: 61,212 KB > 9,216 KB (+564%)");
    }

    @Test
    void gradesTheMinimumOverRuns() {
        EnvelopeVerdict verdict = EnvelopeGrader.grade(envelope(basic(5000, 200_000)),
                List.of(ok(7000, 300_000), ok(4000, 150_000), ok(6000, 250_000)), null, List.of());
        assertThat(verdict.accepted()).isTrue();
        assertThat(verdict.graded()).containsEntry(Ceiling.RSS, 4000L).containsEntry(Ceiling.USER_CPU, 150_000L);
        assertThat(verdict.runs()).hasSize(3);
    }

    @Test
    void reportsReasonsInTheContractOrder() {
        Map<Ceiling, Long> ceilings = basic(1000, 1000);
        ceilings.put(Ceiling.SYS_CPU, 1L);
        ceilings.put(Ceiling.WALL, 1L);
        ceilings.put(Ceiling.MINFLT, 1L);
        ceilings.put(Ceiling.MAJFLT, 0L);
        ceilings.put(Ceiling.INBLOCK, 0L);
        ceilings.put(Ceiling.OUBLOCK, 0L);
        EnvelopeRun heavy = new EnvelopeRun(3, null, false, true, 5000L, 5000L, 50L, 90, 500L, 2L, 16L, 24L, "b".repeat(64), "", "");
        EnvelopeRun crashed = new EnvelopeRun(null, "SIGSEGV", false, false, 5000L, 5000L, 50L, 90, 500L, 2L, 16L, 24L, SHA, "", "");
        EnvelopeVerdict verdict = EnvelopeGrader.grade(envelope(ceilings), List.of(heavy, crashed), SHA, List.of("host class differs"));
        assertThat(verdict.reasons()).containsExactly("exit_3", "signal_SIGSEGV", "rss", "user_cpu", "sys_cpu", "wall", "minflt",
                "majflt", "inblock", "oublock", "stdout", "output_limit", "host_mismatch");
    }

    @Test
    void aTimeoutComesFirstAndSuppressesCutShortFigures() {
        EnvelopeVerdict verdict = EnvelopeGrader.grade(envelope(basic(1000, 1000)),
                List.of(run(null, "SIGKILL", true, 5000, 5000, 5000)), SHA, List.of());
        assertThat(verdict.reasons()).containsExactly("timeout");
    }

    @Test
    void theOutputCapSignalIsNotReportedAsACrash() {
        EnvelopeRun limited = new EnvelopeRun(null, "SIGXFSZ", false, true, 100L, 100L, 1L, 1, 1L, 0L, 0L, 0L, SHA, "", "");
        assertThat(EnvelopeGrader.grade(envelope(basic(1000, 1000)), List.of(limited), null, List.of()).reasons())
                .containsExactly("output_limit");
    }

    @Test
    void aCeilingThatCannotBeMeasuredIsAnErrorNotAPass() {
        EnvelopeRun unmeasured = new EnvelopeRun(0, null, false, false, null, null, null, 5, null, null, null, null, SHA, "", "");
        assertThatThrownBy(() -> EnvelopeGrader.grade(envelope(basic(1000, 1000)), List.of(unmeasured), null, List.of()))
                .isInstanceOf(PatchgradeException.class)
                .hasMessageContaining("max_rss_kb").hasMessageContaining("cannot be measured")
                .extracting(e -> ((PatchgradeException) e).errorName()).isEqualTo("unmeasurable_ceiling");
    }

    /** A process the kernel reaped itself took its peak RSS out of every wait4: the ceiling errors, naming why. */
    @Test
    void aPeakThatAProcessTookOutOfEveryWaitIsAnErrorThatSaysWhy() {
        EnvelopeRun escaped = new EnvelopeRun(0, null, false, false, null, 400_000L, 90_000L, 700, null, null, null, null, SHA, "", "", null, 0,
                380_000L);
        assertThatThrownBy(() -> EnvelopeGrader.grade(envelope(basic(1000, 800_000)), List.of(ok(900, 1000), escaped), null, List.of()))
                .isInstanceOf(PatchgradeException.class)
                .hasMessageContaining("max_rss_kb").hasMessageContaining("ignored SIGCHLD").hasMessageContaining("380 ms of CPU")
                .extracting(e -> ((PatchgradeException) e).errorName()).isEqualTo("unmeasurable_ceiling");
        assertThatThrownBy(() -> EnvelopeRecording.of(List.of("./driver"), 5, List.of(escaped), Slack.DEFAULT,
                new dev.patchgrade.core.host.HostInfo("linux", "amd64", "cpu", 2, "c"), null))
                .as("nor is one recorded from it").hasMessageContaining("run 1").hasMessageContaining("ignored SIGCHLD")
                .extracting(e -> ((PatchgradeException) e).errorName()).isEqualTo("unmeasurable_ceiling");
        EnvelopeRun waited = new EnvelopeRun(0, null, false, false, 900L, 1000L, 10L, 5, 100L, 0L, 0L, 8L, SHA, "", "", null, 0, 0L);
        assertThat(EnvelopeGrader.grade(envelope(basic(1000, 800_000)), List.of(waited), null, List.of()).accepted())
                .as("every process waited for").isTrue();
    }

    @Test
    void aCheapRunThatPassedWhereAnotherBrokeTheCeilingIsADisagreement() {
        // A page-cache candidate: 421 ms of CPU on its first run, under 5 ms on the two it read its answer back in.
        List<EnvelopeRun> runs = List.of(ok(3000, 421_198), ok(3000, 4_628), ok(3000, 4_836));
        Envelope envelope = envelope(basic(9216, 100_000));
        assertThat(EnvelopeGrader.grade(envelope, runs, null, List.of()).accepted()).isTrue();
        assertThat(EnvelopeGrader.disagreements(envelope, runs)).containsExactly(
                "user CPU: run 1 of 3 measured 421,198 us, over the ceiling of 100,000 us; the grade took the cheapest run, 4,628 us");
    }

    @Test
    void runsThatAllPassOrAllBreakAgreeAndOneRunHasNothingToDisagreeWith() {
        Envelope envelope = envelope(basic(9216, 100_000));
        assertThat(EnvelopeGrader.disagreements(envelope, List.of(ok(3000, 90_000), ok(9216, 100_000)))).isEmpty();
        assertThat(EnvelopeGrader.disagreements(envelope, List.of(ok(9300, 200_000), ok(9400, 150_000)))).isEmpty();
        assertThat(EnvelopeGrader.disagreements(envelope, List.of(ok(90_000, 900_000)))).isEmpty();
    }

    @Test
    void everyCeilingDisagreesOnItsOwnAndTheDearestRunIsNamed() {
        Envelope envelope = envelope(basic(9216, 100_000));
        List<String> lines = EnvelopeGrader.disagreements(envelope, List.of(ok(3000, 50_000), ok(9217, 50_000), ok(20_000, 100_001)));
        assertThat(lines).containsExactly(
                "peak RSS: run 3 of 3 measured 20,000 KB, over the ceiling of 9,216 KB; the grade took the cheapest run, 3,000 KB",
                "user CPU: run 3 of 3 measured 100,001 us, over the ceiling of 100,000 us; the grade took the cheapest run, 50,000 us");
    }
}
