package dev.patchgrade.core.envelope;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** How an envelope's figures read: the one-line failure message, an amount with its unit. */
final class EnvelopeText {
    /** What the other figures of a timed-out run show: cut short, they are neither within nor over a ceiling. */
    static final String NOT_GRADED = "not graded (timed out)";

    private EnvelopeText() {}

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

    static String amount(long value, Ceiling ceiling) {
        return String.format(Locale.ROOT, "%,d%s", value, ceiling.unit().isEmpty() ? "" : " " + ceiling.unit());
    }
}
