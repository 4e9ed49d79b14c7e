package dev.patchgrade.core.envelope;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.grade.CaseReporter;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.report.ConsoleTable;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The console of an envelope grade: each figure against its ceiling with the headroom left, the verdict, and what the counted run cost. */
record EnvelopeConsole(GoalSettings settings, GradeLog log) implements CaseReporter<EnvelopeResult, EnvelopeResult> {
    @Override
    public void row(EnvelopeResult row) {}

    @Override
    public void finish(EnvelopeResult result) {
        printTable(result.caseName(), result.envelope(), result.verdict());
        List<EnvelopeRun> runs = result.verdict().runs();
        String countedTime = EnvelopeGoal.countedTime(result.count(), runs);
        if (countedTime != null) {
            log.info(countedTime);
        }
        if (EnvelopeGoal.costly(result.count(), runs)) {
            log.warn(EnvelopeGoal.costWarning(settings, result.count(), runs, false));
        }
    }

    private void printTable(String caseName, Envelope envelope, EnvelopeVerdict verdict) {
        ConsoleTable table = new ConsoleTable("figure", "measured", "ceiling", "headroom", "");
        boolean timedOut = verdict.runs().stream().anyMatch(EnvelopeRun::timedOut);
        for (Map.Entry<Ceiling, Long> entry : verdict.graded().entrySet()) {
            Ceiling ceiling = entry.getKey();
            long measured = entry.getValue();
            long limit = envelope.ceilings().get(ceiling);
            if (timedOut) {
                // The figures of a run cut short say nothing about the ceiling either way.
                table.row(ceiling.label(), EnvelopeText.amount(measured, ceiling), EnvelopeText.amount(limit, ceiling), EnvelopeText.NOT_GRADED, "");
                continue;
            }
            String headroom = limit == 0 ? "-" : measured > limit
                    ? String.format(Locale.ROOT, "over by %.0f%%", (measured - limit) * 100.0 / limit)
                    : String.format(Locale.ROOT, "%.0f%% left", (limit - measured) * 100.0 / limit);
            boolean broken = verdict.breaches().stream().anyMatch(b -> b.ceiling() == ceiling);
            table.row(ceiling.label(), EnvelopeText.amount(measured, ceiling), EnvelopeText.amount(limit, ceiling), headroom, broken ? "BROKEN" : "ok");
        }
        for (EnvelopeVerdict.Breach breach : verdict.breaches()) {
            if (breach.without() != null) {
                table.row(breach.ceiling().label(), "not counted", EnvelopeText.amount(breach.ceilingValue(), breach.ceiling()),
                        "counted run printed other output", "BROKEN");
            }
        }
        EnvelopeRun first = verdict.runs().get(0);
        table.row("exit", first.timedOut() ? "timeout" : first.signal() != null ? first.signal() : String.valueOf(first.exitCode()), "0", "",
                first.clean() ? "ok" : "BROKEN");
        log.info("envelope " + caseName + " against " + envelope.file().getFileName() + ":");
        table.lines().forEach(log::info);
        log.info("verdict: " + verdict.verdict().toUpperCase(Locale.ROOT) + (verdict.accepted() ? "" : " (" + String.join(", ", verdict.reasons()) + ")"));
    }
}
