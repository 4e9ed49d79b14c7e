package dev.patchgrade.core.envelope;

import dev.patchgrade.core.Setting;
import dev.patchgrade.core.Suggestions;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How much one figure varied over the recorded runs: the smallest and the largest. Slack is there to absorb
 * that variation; where the runs agree closely, most of the slack is room a worse patch can grow into, and
 * the recording says how much.
 */
public record Spread(long min, long max) {
    /**
     * The slack is called wide where it leaves this many times the recorded variation as headroom: a default
     * 30% over figures that varied 0.03% lets a patch grow peak RSS by 30% unseen.
     */
    static final int WIDE = 10;
    /** Never advise a slack below this percentage: the runs seen are few, and another machine of the class differs a little. */
    static final int LEAST_ADVISED_PERCENT = 3;

    /** The variation as a share of the smallest run, in percent. */
    public double percent() {
        return min == 0 ? (max == 0 ? 0 : 100) : (max - min) * 100.0 / min;
    }

    /** Each figure every run measured, where there are at least two runs to compare. */
    public static Map<Ceiling, Spread> of(List<EnvelopeRun> runs) {
        Map<Ceiling, Spread> spreads = new EnumMap<>(Ceiling.class);
        if (runs.size() < 2) {
            return spreads;
        }
        for (Ceiling ceiling : Ceiling.values()) {
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            boolean everyRun = true;
            for (EnvelopeRun run : runs) {
                Long value = ceiling.figure(run);
                if (value == null) {
                    everyRun = false;
                    break;
                }
                min = Math.min(min, value);
                max = Math.max(max, value);
            }
            if (everyRun) {
                spreads.put(ceiling, new Spread(min, max));
            }
        }
        return spreads;
    }

    /**
     * One line for each of peak RSS and user CPU whose ceiling leaves more than {@link #WIDE} times the recorded
     * variation (and twice the advised slack) as headroom over the largest run: how much a patch may grow unseen, and the settings that narrow it.
     */
    static List<String> advice(EnvelopeRecording recording, Suggestions shown) {
        List<String> lines = new ArrayList<>();
        Map<Ceiling, Spread> spreads = of(recording.runs());
        for (Ceiling ceiling : List.of(Ceiling.RSS, Ceiling.USER_CPU)) {
            Spread spread = spreads.get(ceiling);
            Long ceilingValue = recording.ceilings().get(ceiling);
            if (spread == null || ceilingValue == null || spread.max() <= 0) {
                continue;
            }
            double headroom = (ceilingValue - spread.max()) * 100.0 / spread.max();
            int advised = (int) Math.max(LEAST_ADVISED_PERCENT, Math.ceil(spread.percent() * 3));
            // Advice only where it would narrow the ceiling much: a slack already near the advised one stays unremarked.
            if (headroom <= Math.max(WIDE * spread.percent(), 2.0 * advised)) {
                continue;
            }
            boolean rss = ceiling == Ceiling.RSS;
            Setting percent = rss ? Setting.RSS_SLACK_PERCENT : Setting.CPU_SLACK_PERCENT;
            Setting absolute = rss ? Setting.RSS_SLACK_KB : Setting.CPU_SLACK_US;
            lines.add(String.format(Locale.ROOT, "%s varied %.2f%% over the %d runs (%s to %s), but the ceiling %s leaves %.1f%% headroom over "
                    + "the largest: a patch that adds up to %s passes. To narrow it, set %s (e.g. %s) and %s, and re-record",
                    ceiling.label(), spread.percent(), recording.runs().size(), EnvelopeText.amount(spread.min(), ceiling),
                    EnvelopeText.amount(spread.max(), ceiling), EnvelopeText.amount(ceilingValue, ceiling), headroom,
                    EnvelopeText.amount(ceilingValue - spread.max(), ceiling), shown.setting(percent),
                    shown.once(percent.is(Integer.toString(advised))), shown.setting(absolute)));
        }
        return lines;
    }
}
