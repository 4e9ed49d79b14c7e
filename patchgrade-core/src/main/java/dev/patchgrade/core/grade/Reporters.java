package dev.patchgrade.core.grade;

import java.util.List;

/**
 * Several reporters fed as one, in the order given (JaCoCo's {@code MultiReportVisitor}): each row goes to
 * every reporter before the next row, and each reporter finishes in turn.
 */
public final class Reporters<R, T> implements CaseReporter<R, T> {
    private final List<CaseReporter<R, T>> reporters;

    public Reporters(List<CaseReporter<R, T>> reporters) {
        this.reporters = List.copyOf(reporters);
    }

    @Override
    public void row(R row) {
        for (CaseReporter<R, T> reporter : reporters) {
            reporter.row(row);
        }
    }

    @Override
    public void finish(T result) {
        for (CaseReporter<R, T> reporter : reporters) {
            reporter.finish(result);
        }
    }

    /** Closes every reporter, also after one of them failed to close: the first failure is thrown, the others added to it. */
    @Override
    public void close() {
        RuntimeException failure = null;
        for (CaseReporter<R, T> reporter : reporters) {
            try {
                reporter.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
