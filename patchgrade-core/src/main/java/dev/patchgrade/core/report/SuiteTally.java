package dev.patchgrade.core.report;

import java.util.Locale;

/** The counts of a suite, all a reporter keeps of the cases that went through it. */
public final class SuiteTally {
    private final String suiteName;
    private long graded;
    private long failures;
    private long errors;
    private long skipped;
    private double seconds;

    public SuiteTally(String suiteName) {
        this.suiteName = suiteName;
    }

    synchronized void count(CaseOutcome.Status status) {
        graded++;
        switch (status) {
            case FAILED -> failures++;
            case ERROR -> errors++;
            case SKIPPED -> skipped++;
            case PASSED -> { }
        }
    }

    synchronized void seconds(double value) {
        seconds = value;
    }

    public String suiteName() {
        return suiteName;
    }

    /** The cases counted: none means the report holds one skipped placeholder. */
    public synchronized long graded() {
        return graded;
    }

    /** As the report says it: at least one, the placeholder of a suite with no case. */
    public synchronized long tests() {
        return Math.max(1, graded);
    }

    public synchronized long failures() {
        return failures;
    }

    public synchronized long errors() {
        return errors;
    }

    public synchronized long skipped() {
        return graded == 0 ? 1 : skipped;
    }

    public synchronized double seconds() {
        return seconds;
    }

    /** Surefire's summary line, so that people and log parsers find the totals where they look for them. */
    public String testsRunLine() {
        return String.format(Locale.ROOT, "Tests run: %d, Failures: %d, Errors: %d, Skipped: %d, Time elapsed: %.3f s - in %s",
                tests(), failures(), errors(), skipped(), seconds(), suiteName);
    }
}
