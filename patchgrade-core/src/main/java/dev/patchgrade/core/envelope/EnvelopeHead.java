package dev.patchgrade.core.envelope;

import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.count.InstructionCount;
import dev.patchgrade.core.grade.GoalRun;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.JsonView;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** What the JSON report says of an envelope grade: no rows, and a head with every figure measured, every ceiling and every run. */
record EnvelopeHead(GoalSettings settings, Shard shard) implements JsonView<EnvelopeResult, EnvelopeResult> {
    @Override
    public Object row(EnvelopeResult row) {
        return null;
    }

    @Override
    public EnvelopeJson.Head head(EnvelopeResult result) {
        EnvelopeVerdict verdict = result.verdict();
        Envelope envelope = result.envelope();
        Map<Ceiling, Long> ceilings = new EnumMap<>(Ceiling.class);
        ceilings.putAll(envelope.ceilings());
        List<EnvelopeJson.Figure> figures = new ArrayList<>();
        verdict.graded().forEach((ceiling, measured) -> figures.add(new EnvelopeJson.Figure(ceiling.key(), ceiling.unit(), measured,
                envelope.ceilings().get(ceiling))));
        return new EnvelopeJson.Head("grade", "envelope", settings.executionId(), verdict.verdict(), result.worst(), shard.reported(), verdict.reasons(),
                result.command(), measured(verdict, result.count()), new EnvelopeJson.PerCeiling(ceilings, Ceiling::key), figures,
                envelope.timeoutSeconds(), verdict.runs().stream().map(EnvelopeHead::runJson).toList(), verdict.hostDifferences(),
                envelope.file().toString(), GoalRun.sandboxJson(settings));
    }

    private EnvelopeJson.Measured measured(EnvelopeVerdict verdict, InstructionCount count) {
        EnvelopeRun first = verdict.runs().get(0);
        Map<Ceiling, Long> figures = new EnumMap<>(Ceiling.class);
        for (Ceiling ceiling : Ceiling.values()) {
            Long value = verdict.graded().get(ceiling);
            if (value == null) {
                value = verdict.runs().stream().map(ceiling::figure).filter(Objects::nonNull).min(Long::compare).orElse(null);
            }
            figures.put(ceiling, value);
        }
        return new EnvelopeJson.Measured(first.timedOut() ? null : first.exitCode(), first.signal(),
                verdict.runs().stream().anyMatch(EnvelopeRun::timedOut), verdict.runs().stream().mapToInt(EnvelopeRun::leftovers).max().orElse(0),
                settings.facts().method(), new EnvelopeJson.PerCeiling(figures, Ceiling::measuredKey), count == null ? null : count.method(),
                count == null ? null : count.wallMillis(), count == null || count.measured() ? null : count.problem(),
                count == null ? null : count.limitation(), settings.facts().cpuLimitation());
    }

    private static EnvelopeJson.Run runJson(EnvelopeRun run) {
        Map<Ceiling, Long> figures = new EnumMap<>(Ceiling.class);
        for (Ceiling ceiling : Ceiling.values()) {
            // Counted in a run of its own: no graded run has the figure, so the runs leave the key out.
            if (ceiling != Ceiling.INSTRUCTIONS) {
                figures.put(ceiling, ceiling.figure(run));
            }
        }
        return new EnvelopeJson.Run(run.timedOut() ? null : run.exitCode(), run.signal(), run.timedOut(), run.outputLimited(), run.leftovers(),
                new EnvelopeJson.PerCeiling(figures, Ceiling::measuredKey), run.stdoutSha256());
    }
}
