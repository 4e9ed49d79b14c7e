package dev.patchgrade.core.report;

import java.time.Instant;
import java.util.List;

/**
 * One JUnit {@code testsuite}: one goal execution (one shard of it, where sharded).
 *
 * @param suiteName unique across the files Jenkins merges (carries the shard)
 * @param className the {@code classname} of every test case: {@code <artifactId>.patchgrade.<goal>.<executionId>}
 * @param properties the suite's {@code properties} ({@code patchgrade.sandbox}, ...), in order
 * @param timestamp when the grading started
 * @param hostname the machine that graded, so that a report from the wrong agent can be told apart
 */
public record TestSuiteReport(String suiteName, String className, double seconds, List<CaseOutcome> cases,
        java.util.Map<String, String> properties, Instant timestamp, String hostname) {

    public TestSuiteReport {
        cases = List.copyOf(cases);
        properties = properties == null ? java.util.Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(properties));
    }

    public TestSuiteReport(String suiteName, String className, double seconds, List<CaseOutcome> cases) {
        this(suiteName, className, seconds, cases, null);
    }

    /** A suite that ended now, {@code seconds} after it started, on this machine. */
    public TestSuiteReport(String suiteName, String className, double seconds, List<CaseOutcome> cases,
            java.util.Map<String, String> properties) {
        this(suiteName, className, seconds, cases, properties, Instant.now().minusMillis(Math.round(seconds * 1000)), HostName.LOCAL);
    }

    public long count(CaseOutcome.Status status) {
        return cases.stream().filter(c -> c.status() == status).count();
    }
}
