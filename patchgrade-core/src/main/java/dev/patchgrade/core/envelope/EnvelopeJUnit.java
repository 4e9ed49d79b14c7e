package dev.patchgrade.core.envelope;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.report.CaseOutcome;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * What the JUnit XML says of an envelope grade: one case named by the execution, whose failure has the broken
 * ceilings in its message and every figure, the runs and what to do in its body.
 *
 * @param log where a hint about the sandbox goes, once
 */
record EnvelopeJUnit(GoalSettings settings, GradeLog log) implements Function<EnvelopeResult, CaseOutcome> {
    @Override
    public CaseOutcome apply(EnvelopeResult result) {
        EnvelopeVerdict verdict = result.verdict();
        EnvelopeRun first = verdict.runs().get(0);
        String details = detailText(verdict, result.envelope()) + (verdict.accepted() ? "" : settings.facts().hintText(first.stderrExcerpt(), log,
                settings.suggestions()));
        // Named by the execution, which stays the same in every workspace; an absolute command does not.
        String name = settings.executionId();
        String commandLine = "command: " + result.caseName() + "\n";
        return verdict.accepted()
                ? CaseOutcome.passed(name, result.seconds(), commandLine + first.stdoutExcerpt(), first.stderrExcerpt())
                : CaseOutcome.failed(name, result.seconds(), verdict.reasons().get(0), EnvelopeText.failureMessage(verdict, result.envelope()),
                        commandLine + details, first.stdoutExcerpt(), first.stderrExcerpt());
    }

    private String detailText(EnvelopeVerdict verdict, Envelope envelope) {
        StringBuilder text = new StringBuilder();
        text.append("reasons: ").append(String.join(", ", verdict.reasons())).append('\n');
        for (EnvelopeVerdict.Breach breach : verdict.breaches()) {
            text.append("  ").append(breach.describe()).append('\n');
        }
        boolean timedOut = verdict.runs().stream().anyMatch(EnvelopeRun::timedOut);
        for (Map.Entry<Ceiling, Long> entry : verdict.graded().entrySet()) {
            text.append(String.format(Locale.ROOT, "%s: measured %,d, ceiling %,d%s%n", entry.getKey().key(), entry.getValue(),
                    envelope.ceilings().get(entry.getKey()), timedOut ? ", " + EnvelopeText.NOT_GRADED : ""));
        }
        text.append("runs: ").append(verdict.runs().size()).append(" (each figure graded is the minimum over the runs)\n");
        text.append("full output of the last run: ").append(settings.streamsDirectory().resolve("run.stdout")).append(" and .stderr\n");
        text.append("if the cost increase is intended: ").append(settings.rerecord("record-envelope")).append(", and commit ")
                .append(envelope.file().getFileName()).append(" with the patch\n");
        return text.toString();
    }
}
