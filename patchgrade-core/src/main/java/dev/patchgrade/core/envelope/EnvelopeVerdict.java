package dev.patchgrade.core.envelope;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The grade of one command against an envelope.
 *
 * @param reasons every reason to reject, in the contract's order; empty means accept
 * @param breaches the broken ceilings with their numbers
 * @param graded the figure graded for each ceiling present: the minimum over the runs
 */
public record EnvelopeVerdict(List<String> reasons, List<Breach> breaches, Map<Ceiling, Long> graded,
        List<EnvelopeRun> runs, List<String> hostDifferences) {

    public boolean accepted() {
        return reasons.isEmpty();
    }

    public String verdict() {
        return accepted() ? "accept" : "reject";
    }

    /** A ceiling broken by a figure. */
    public record Breach(Ceiling ceiling, long measured, long ceilingValue) {
        public String describe() {
            String unit = ceiling.unit().isEmpty() ? "" : " " + ceiling.unit();
            String over = ceilingValue == 0 ? "" : String.format(Locale.ROOT, " (+%d%%)",
                    Math.round((measured - ceilingValue) * 100.0 / ceilingValue));
            return String.format(Locale.ROOT, "%s: %,d%s > %,d%s%s", ceiling.reason(), measured, unit, ceilingValue, unit, over);
        }
    }
}
