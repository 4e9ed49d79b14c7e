package dev.patchgrade.core.report;

import java.util.List;

/**
 * One JUnit {@code testsuite}: one goal execution (one shard of it, where sharded).
 *
 * @param suiteName unique across the files Jenkins merges (carries the shard)
 * @param className the {@code classname} of every test case: {@code patchgrade.<goal>.<executionId>}
 * @param properties the suite's {@code properties} ({@code patchgrade.sandbox}, ...), in order
 */
public record TestSuiteReport(String suiteName, String className, double seconds, List<TestCaseReport> cases,
        java.util.Map<String, String> properties) {

    public TestSuiteReport {
        cases = List.copyOf(cases);
        properties = properties == null ? java.util.Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(properties));
    }

    public TestSuiteReport(String suiteName, String className, double seconds, List<TestCaseReport> cases) {
        this(suiteName, className, seconds, cases, null);
    }

    public long count(TestCaseReport.Status status) {
        return cases.stream().filter(c -> c.status() == status).count();
    }
}
