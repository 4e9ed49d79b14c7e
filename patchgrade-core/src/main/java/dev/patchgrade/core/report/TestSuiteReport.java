package dev.patchgrade.core.report;

import java.util.List;

/**
 * One JUnit {@code testsuite}: one goal execution (one shard of it, where sharded).
 *
 * @param suiteName unique across the files Jenkins merges (carries the shard)
 * @param className the {@code classname} of every test case: {@code patchgrade.<goal>.<executionId>}
 */
public record TestSuiteReport(String suiteName, String className, double seconds, List<TestCaseReport> cases) {

    public TestSuiteReport {
        cases = List.copyOf(cases);
    }

    public long count(TestCaseReport.Status status) {
        return cases.stream().filter(c -> c.status() == status).count();
    }
}
