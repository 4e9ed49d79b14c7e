package dev.patchgrade.core.grade;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import java.util.ArrayList;
import java.util.List;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Runs one piece of work per case on a fixed number of workers and returns the results in case
 * order. Long runs print progress every few seconds, not a line per case.
 */
public final class CaseRunner {
    public static final Duration PROGRESS_INTERVAL = Duration.ofSeconds(10);

    private CaseRunner() {}

    /** The configured number of workers, or one per core when none is configured. */
    public static int workers(Integer configured) {
        return configured == null ? Runtime.getRuntime().availableProcessors() : configured;
    }

    public static <C, R> List<R> runAll(List<C> cases, int parallel, Function<C, R> work, Predicate<R> failing, GradeLog log) {
        return runAll(cases, parallel, work, failing, log, PROGRESS_INTERVAL);
    }

    public static <C, R> List<R> runAll(List<C> cases, int parallel, Function<C, R> work, Predicate<R> failing, GradeLog log,
            Duration progressInterval) {
        long progressNanos = progressInterval.toNanos();
        if (parallel < 1) {
            throw new PatchgradeException("bad_parameter", "<parallel> must be at least 1 (found " + parallel + ")");
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(parallel, Math.max(1, cases.size())), runnable -> {
            Thread thread = new Thread(runnable, "patchgrade-case");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<R>> futures = new ArrayList<>(cases.size());
            for (C c : cases) {
                futures.add(pool.submit(() -> work.apply(c)));
            }
            List<R> results = new ArrayList<>(cases.size());
            long lastReport = System.nanoTime();
            int failures = 0;
            for (Future<R> future : futures) {
                R result;
                while (true) {
                    try {
                        result = future.get(Math.min(1000, Math.max(1, progressInterval.toMillis())), TimeUnit.MILLISECONDS);
                        break;
                    } catch (TimeoutException e) {
                        if (System.nanoTime() - lastReport > progressNanos) {
                            log.info("progress: " + results.size() + "/" + cases.size() + " cases done, " + failures + " failing so far");
                            lastReport = System.nanoTime();
                        }
                    }
                }
                if (failing.test(result)) {
                    failures++;
                }
                results.add(result);
                if (System.nanoTime() - lastReport > progressNanos) {
                    log.info("progress: " + results.size() + "/" + cases.size() + " cases done, " + failures + " failing so far");
                    lastReport = System.nanoTime();
                }
            }
            return results;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PatchgradeException("interrupted", "grading was interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof PatchgradeException pe) {
                throw pe;
            }
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(cause);
        } finally {
            pool.shutdownNow();
        }
    }
}
