package dev.patchgrade.core.report;

/**
 * One {@code testcase} of a JUnit report.
 *
 * @param name the case id, or the command for an envelope
 * @param status what the case came to
 * @param type the reason, pattern or error name for a failure or error
 * @param message one line with the numbers
 * @param details the body of the failure or error: every detail, and where the full streams are
 */
public record TestCaseReport(
        String name, double seconds, Status status, String type, String message, String details,
        String systemOut, String systemErr) {

    public enum Status { PASSED, FAILED, ERROR, SKIPPED }

    public static TestCaseReport passed(String name, double seconds, String systemOut, String systemErr) {
        return new TestCaseReport(name, seconds, Status.PASSED, null, null, null, systemOut, systemErr);
    }

    public static TestCaseReport failed(String name, double seconds, String type, String message, String details,
            String systemOut, String systemErr) {
        return new TestCaseReport(name, seconds, Status.FAILED, type, message, details, systemOut, systemErr);
    }

    public static TestCaseReport error(String name, String type, String message, String details) {
        return new TestCaseReport(name, 0, Status.ERROR, type, message, details, null, null);
    }
}
