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

    /**
     * A ceiling broken by a figure, or rejected without one.
     *
     * @param without why no figure can be held to the ceiling (the counted run did other work than the graded runs), with
     *     {@code measured} 0; {@code null} for a figure over it
     */
    public record Breach(Ceiling ceiling, long measured, long ceilingValue, String without) {
        public Breach(Ceiling ceiling, long measured, long ceilingValue) {
            this(ceiling, measured, ceilingValue, null);
        }

        public static Breach without(Ceiling ceiling, long ceilingValue, String why) {
            return new Breach(ceiling, 0, ceilingValue, why);
        }

        public String describe() {
            if (without != null) {
                return ceiling.reason() + ": " + without;
            }
            String unit = ceiling.unit().isEmpty() ? "" : " " + ceiling.unit();
            String over = ceilingValue == 0 ? "" : String.format(Locale.ROOT, " (+%d%%)",
                    Math.round((measured - ceilingValue) * 100.0 / ceilingValue));
            return String.format(Locale.ROOT, "%s: %,d%s > %,d%s%s", ceiling.reason(), measured, unit, ceilingValue, unit, over);
        }
    }
}
