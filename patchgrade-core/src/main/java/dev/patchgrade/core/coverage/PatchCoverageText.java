package dev.patchgrade.core.coverage;

import java.util.Locale;

/** How the reports and the console word a file's coverage, the same in each. */
final class PatchCoverageText {
    private PatchCoverageText() {}

    /** "2 of 5 changed executable lines run (40%) < minimumPercent 100; never run: 12-14, 20". */
    static String failureMessage(FileCoverage file, double minimumPercent) {
        return summary(file) + " < minimumPercent " + number(minimumPercent) + "; never run: " + LineRanges.format(file.notRun());
    }

    static String summary(FileCoverage file) {
        return file.run().size() + " of " + file.executable().size() + " changed executable line" + (file.executable().size() == 1 ? "" : "s")
                + " run (" + percent(file.percent()) + ")";
    }

    static String percent(Double share) {
        if (share == null) {
            return "-";
        }
        // Never rounded up to 100: a file with one line in a thousand not run is not at 100%.
        double floored = Math.floor(share * 10) / 10;
        return (floored == Math.rint(floored) ? String.format(Locale.ROOT, "%.0f", floored) : String.format(Locale.ROOT, "%.1f", floored)) + "%";
    }

    static String number(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }
}
