package dev.patchgrade.core.grade;

import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.report.ConsoleText;
import java.util.List;

/**
 * The message a build ends a grading execution with, its error or its failures, pointing at the reports that hold
 * the whole of it. The build tool only decides what kind of failure it is.
 */
public final class BuildOutcome {
    /**
     * The console's table has listed the failing cases already: the message that ends the build repeats only the first
     * few, so that a log holding several failed executions still ends in a summary a reader can take in.
     */
    public static final int LINES_LISTED = 10;

    private BuildOutcome() {}

    /** The setup error that stopped grading: its name, its message with the settings named as the build tool shows them. */
    public static String errorMessage(GoalSettings settings, PatchgradeException error) {
        return ConsoleText.safe(error.errorName() + ": " + error.message(settings.suggestions()) + " (" + reports(settings) + ")");
    }

    /** The first graded items that broke an oracle, one line each, under a line that says how many and the worst. */
    public static String failureMessage(GoalSettings settings, GoalResult result) {
        StringBuilder message = new StringBuilder("patchgrade " + settings.goal() + " (" + settings.executionId() + "): "
                + result.failureCount() + " graded item(s) broke an oracle, worst: " + result.worst() + "; " + reports(settings));
        List<String> listed = result.failures().subList(0, Math.min(LINES_LISTED, result.failures().size()));
        for (String failure : listed) {
            message.append(System.lineSeparator()).append("  ").append(ConsoleText.safe(failure));
        }
        long unlisted = result.failureCount() - listed.size();
        if (unlisted > 0) {
            message.append(System.lineSeparator()).append("  ... and ").append(unlisted).append(" more, listed in the reports");
        }
        return message.toString();
    }

    private static String reports(GoalSettings settings) {
        return "see " + settings.xmlReport() + " and " + settings.jsonReport();
    }
}
