package dev.patchgrade.core.envelope;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.count.InstructionCount;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.GoalRun;
import dev.patchgrade.core.report.ConsoleTable;
import dev.patchgrade.core.report.ExecutionReport;
import dev.patchgrade.core.report.CaseOutcome;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
                default -> verdict.breaches().stream().filter(b -> b.ceiling().reason().equals(reason))
                        .map(EnvelopeVerdict.Breach::describe).findFirst().orElse(reason);
            };
            parts.add(detail);
        }
        return String.join("; ", parts);
    }

    private static String trim(double seconds) {
        return seconds == Math.rint(seconds) ? Long.toString((long) seconds) : Double.toString(seconds);
    }

    static void writeReports(GoalSettings settings, Shard shard, String caseName, List<String> command, Envelope envelope,
            EnvelopeVerdict verdict, InstructionCount count, double seconds, GradeLog log) {
        EnvelopeRun first = verdict.runs().get(0);
        String details = detailText(verdict, envelope, settings) + (verdict.accepted() ? "" : settings.facts().hintText(first.stderrExcerpt(), log,
                settings.suggestions()));
        CaseOutcome test = verdict.accepted()
                ? CaseOutcome.passed(caseName, seconds, first.stdoutExcerpt(), first.stderrExcerpt())
                : CaseOutcome.failed(caseName, seconds, verdict.reasons().get(0), failureMessage(verdict, envelope), details,
                        first.stdoutExcerpt(), first.stderrExcerpt());
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("mode", "grade");
        json.put("goal", "envelope");
        json.put("execution", settings.executionId());
        json.put("verdict", verdict.verdict());
        json.put("reasons", verdict.reasons());
        json.put("command", command);
        Map<String, Object> measuredJson = measured(verdict, settings.facts().method());
        if (count != null) {
            measuredJson.put("instruction_counter", count.method());
            if (!count.measured()) {
                measuredJson.put("instructions_problem", count.problem());
            }
        }
        if (settings.facts().cpuLimitation() != null) {
            measuredJson.put("cpu_limitation", settings.facts().cpuLimitation());
        }
        json.put("measured", measuredJson);
        Map<String, Long> ceilings = new LinkedHashMap<>();
        envelope.ceilings().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> ceilings.put(e.getKey().key(), e.getValue()));
        json.put("ceilings", ceilings);
        // Each graded figure beside its ceiling, so readers (the HTML summary) need not know the key pairs.
        List<Map<String, Object>> figures = new ArrayList<>();
        verdict.graded().forEach((ceiling, measured) -> {
            Map<String, Object> figure = new LinkedHashMap<>();
            figure.put("ceiling_key", ceiling.key());
            figure.put("unit", ceiling.unit());
            figure.put("measured", measured);
            figure.put("ceiling", envelope.ceilings().get(ceiling));
            figures.add(figure);
        });
        json.put("figures", figures);
        json.put("timeout_s", envelope.timeoutSeconds());
        json.put("runs", verdict.runs().stream().map(EnvelopeReport::runJson).toList());
        if (!verdict.hostDifferences().isEmpty()) {
            json.put("host_differences", verdict.hostDifferences());
        }
        json.put("envelope", envelope.file().toString());
        json.put("sandbox", GoalRun.sandboxJson(settings));
        try (ExecutionReport report = GoalRun.openReport(settings, settings.suiteName(shard), null)) {
            report.add(test, null);
            GoalRun.finish(settings, report, seconds, json);
        }
    }

    private static Map<String, Object> measured(EnvelopeVerdict verdict, String method) {
        EnvelopeRun first = verdict.runs().get(0);
        Map<String, Object> measured = new LinkedHashMap<>();
        measured.put("returncode", first.timedOut() ? null : first.exitCode());
        measured.put("signal", first.signal());
        measured.put("timed_out", verdict.runs().stream().anyMatch(EnvelopeRun::timedOut));
        measured.put("leftovers", verdict.runs().stream().mapToInt(EnvelopeRun::leftovers).max().orElse(0));
        measured.put("method", method);
        for (Ceiling ceiling : Ceiling.values()) {
            Long value = verdict.graded().get(ceiling);
            if (value == null) {
                value = verdict.runs().stream().map(ceiling::figure).filter(java.util.Objects::nonNull).min(Long::compare).orElse(null);
            }
            measured.put(ceiling.measuredKey(), value);
        }
        return measured;
    }

    private static Map<String, Object> runJson(EnvelopeRun run) {
        Map<String, Object> one = new LinkedHashMap<>();
        one.put("returncode", run.timedOut() ? null : run.exitCode());
        one.put("signal", run.signal());
        one.put("timed_out", run.timedOut());
        one.put("output_limit", run.outputLimited());
        one.put("leftovers", run.leftovers());
        for (Ceiling ceiling : Ceiling.values()) {
            if (ceiling != Ceiling.INSTRUCTIONS) {
                one.put(ceiling.measuredKey(), ceiling.figure(run));
            }
        }
        one.put("stdout_sha256", run.stdoutSha256());
        return one;
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
