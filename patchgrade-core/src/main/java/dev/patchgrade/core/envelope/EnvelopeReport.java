package dev.patchgrade.core.envelope;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.count.InstructionCount;
import dev.patchgrade.core.grade.GoalReports;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.GoalRun;
import dev.patchgrade.core.report.ConsoleTable;
import dev.patchgrade.core.report.ExecutionReport;
import dev.patchgrade.core.report.CaseOutcome;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** What an envelope grade tells people: the failure message, the JUnit and JSON reports, the console table. */
final class EnvelopeReport {
    /** What the other figures of a timed-out run show: cut short, they are neither within nor over a ceiling. */
    static final String NOT_GRADED = "not graded (timed out)";

    private EnvelopeReport() {}

    static String failureMessage(EnvelopeVerdict verdict, Envelope envelope) {
        List<String> parts = new ArrayList<>();
        for (String reason : verdict.reasons()) {
            String detail = switch (reason) {
                case "timeout" -> String.format(Locale.ROOT, "timeout: no exit within %s s", trim(envelope.timeoutSeconds()));
                case "stdout" -> "stdout: differs from the expected output";
                case "output_limit" -> "output_limit: a stream reached the output cap";
                case "host_mismatch" -> "host_mismatch: " + String.join("; ", verdict.hostDifferences());
                default -> reason.startsWith("exit_") ? reason + ": the command exited with " + reason.substring("exit_".length())
                        : reason.startsWith("signal_") ? reason + ": the command was killed by " + reason.substring("signal_".length())
                        : verdict.breaches().stream().filter(b -> b.ceiling().reason().equals(reason))
                                .map(EnvelopeVerdict.Breach::describe).findFirst().orElse(reason);
            };
            parts.add(detail);
        }
        return String.join("; ", parts);
    }

    private static String trim(double seconds) {
        return seconds == Math.rint(seconds) ? Long.toString((long) seconds) : Double.toString(seconds);
    }

    static void writeReports(GoalReports reports, GoalSettings settings, Shard shard, String caseName, List<String> command, Envelope envelope,
            EnvelopeVerdict verdict, InstructionCount count, double seconds, GradeLog log) {
        EnvelopeRun first = verdict.runs().get(0);
        String details = detailText(verdict, envelope, settings) + (verdict.accepted() ? "" : settings.facts().hintText(first.stderrExcerpt(), log,
                settings.suggestions()));
        // Named by the execution, which stays the same in every workspace; an absolute command does not.
        String name = settings.executionId();
        String commandLine = "command: " + caseName + "\n";
        CaseOutcome test = verdict.accepted()
                ? CaseOutcome.passed(name, seconds, commandLine + first.stdoutExcerpt(), first.stderrExcerpt())
                : CaseOutcome.failed(name, seconds, verdict.reasons().get(0), failureMessage(verdict, envelope), commandLine + details,
                        first.stdoutExcerpt(), first.stderrExcerpt());
        Map<Ceiling, Long> ceilings = new EnumMap<>(Ceiling.class);
        ceilings.putAll(envelope.ceilings());
        List<EnvelopeJson.Figure> figures = new ArrayList<>();
        verdict.graded().forEach((ceiling, measured) -> figures.add(new EnvelopeJson.Figure(ceiling.key(), ceiling.unit(), measured,
                envelope.ceilings().get(ceiling))));
        EnvelopeJson.Head json = new EnvelopeJson.Head("grade", "envelope", settings.executionId(), verdict.verdict(),
                verdict.accepted() ? verdict.verdict() : verdict.reasons().get(0), shard.reported(), verdict.reasons(), command,
                measured(verdict, settings, count), new EnvelopeJson.PerCeiling(ceilings, Ceiling::key), figures, envelope.timeoutSeconds(),
                verdict.runs().stream().map(EnvelopeReport::runJson).toList(), verdict.hostDifferences(), envelope.file().toString(),
                GoalRun.sandboxJson(settings));
        try (ExecutionReport report = reports.open(settings.suiteName(shard), null)) {
            report.add(test, null);
            reports.finish(report, seconds, json);
        }
    }

    private static EnvelopeJson.Measured measured(EnvelopeVerdict verdict, GoalSettings settings, InstructionCount count) {
        EnvelopeRun first = verdict.runs().get(0);
        Map<Ceiling, Long> figures = new EnumMap<>(Ceiling.class);
        for (Ceiling ceiling : Ceiling.values()) {
            Long value = verdict.graded().get(ceiling);
            if (value == null) {
                value = verdict.runs().stream().map(ceiling::figure).filter(java.util.Objects::nonNull).min(Long::compare).orElse(null);
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

    private static String detailText(EnvelopeVerdict verdict, Envelope envelope, GoalSettings settings) {
        StringBuilder text = new StringBuilder();
        text.append("reasons: ").append(String.join(", ", verdict.reasons())).append('\n');
        for (EnvelopeVerdict.Breach breach : verdict.breaches()) {
            text.append("  ").append(breach.describe()).append('\n');
        }
        boolean timedOut = verdict.runs().stream().anyMatch(EnvelopeRun::timedOut);
        for (Map.Entry<Ceiling, Long> entry : verdict.graded().entrySet()) {
            text.append(String.format(Locale.ROOT, "%s: measured %,d, ceiling %,d%s%n", entry.getKey().key(), entry.getValue(),
                    envelope.ceilings().get(entry.getKey()), timedOut ? ", " + NOT_GRADED : ""));
        }
        text.append("runs: ").append(verdict.runs().size()).append(" (each figure graded is the minimum over the runs)\n");
        text.append("full output of the last run: ").append(settings.streamsDirectory().resolve("run.stdout")).append(" and .stderr\n");
        text.append("if the cost increase is intended: ").append(settings.rerecord("record-envelope")).append(", and commit ")
                .append(envelope.file().getFileName()).append(" with the patch\n");
        return text.toString();
    }

    static void printTable(GradeLog log, String caseName, Envelope envelope, EnvelopeVerdict verdict) {
        ConsoleTable table = new ConsoleTable("figure", "measured", "ceiling", "headroom", "");
        boolean timedOut = verdict.runs().stream().anyMatch(EnvelopeRun::timedOut);
        for (Map.Entry<Ceiling, Long> entry : verdict.graded().entrySet()) {
            Ceiling ceiling = entry.getKey();
            long measured = entry.getValue();
            long limit = envelope.ceilings().get(ceiling);
            if (timedOut) {
                // The figures of a run cut short say nothing about the ceiling either way.
                table.row(ceiling.label(), amount(measured, ceiling), amount(limit, ceiling), NOT_GRADED, "");
                continue;
            }
            String headroom = limit == 0 ? "-" : measured > limit
                    ? String.format(Locale.ROOT, "over by %.0f%%", (measured - limit) * 100.0 / limit)
                    : String.format(Locale.ROOT, "%.0f%% left", (limit - measured) * 100.0 / limit);
            boolean broken = verdict.breaches().stream().anyMatch(b -> b.ceiling() == ceiling);
            table.row(ceiling.label(), amount(measured, ceiling), amount(limit, ceiling), headroom, broken ? "BROKEN" : "ok");
        }
        for (EnvelopeVerdict.Breach breach : verdict.breaches()) {
            if (breach.without() != null) {
                table.row(breach.ceiling().label(), "not counted", amount(breach.ceilingValue(), breach.ceiling()),
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

    static String amount(long value, Ceiling ceiling) {
        return String.format(Locale.ROOT, "%,d%s", value, ceiling.unit().isEmpty() ? "" : " " + ceiling.unit());
    }
}
