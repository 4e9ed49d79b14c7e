package dev.patchgrade.core.grade;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Runs one piece of work per case on a fixed number of workers and hands on the results in case
 * order. Long runs print progress every few seconds, not a line per case.
 */
public final class CaseRunner {
    public static final Duration PROGRESS_INTERVAL = Duration.ofSeconds(10);

    private CaseRunner() {}

    /** The configured number of workers, or one per core when none is configured. */
    public static int workers(Integer configured) {
        return configured == null ? Runtime.getRuntime().availableProcessors() : configured;
    }

    /** @throws PatchgradeException {@code bad_parameter} unless {@code parallel} is at least 1 */
    public static void requireWorkers(int parallel) {
        if (parallel < 1) {
            throw PatchgradeException.badParameter(Setting.PARALLEL, "must be at least 1 (found " + parallel + ")");
        }
    }

    public static <C, R> List<R> runAll(List<C> cases, int parallel, Function<C, R> work, Predicate<R> failing, GradeLog log) {
        return runAll(cases, parallel, work, failing, log, PROGRESS_INTERVAL);
    }

    /** Every result, in case order; for the few callers that need them all at once (recording, tests). */
    public static <C, R> List<R> runAll(List<C> cases, int parallel, Function<C, R> work, Predicate<R> failing, GradeLog log,
            Duration progressInterval) {
        List<R> results = new ArrayList<>(cases.size());
        forEach(cases, parallel, work, failing, results::add, log, progressInterval);
        return results;
    }

    public static <C, R> void forEach(Collection<C> cases, int parallel, Function<C, R> work, Predicate<R> failing, Consumer<R> done, GradeLog log) {
        forEach(cases, parallel, work, failing, done, log, PROGRESS_INTERVAL);
    }

    /**
     * Runs the cases and hands each result to {@code done} in case order, on the calling thread, as soon as it
     * and every case before it finished. At most a few cases per worker are ahead of {@code done}: nothing
     * here grows with the number of cases, and the cases are taken from {@code cases} only as workers free up, so
     * a collection that reads its cases as they are taken need not hold them (an iterator that is
     * {@link AutoCloseable} is closed at the end).
     */
    public static <C, R> void forEach(Collection<C> cases, int parallel, Function<C, R> work, Predicate<R> failing, Consumer<R> done, GradeLog log,
            Duration progressInterval) {
        long progressNanos = progressInterval.toNanos();
        requireWorkers(parallel);
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(parallel, Math.max(1, cases.size())), runnable -> {
            Thread thread = new Thread(runnable, "patchgrade-case");
            thread.setDaemon(true);
            return thread;
        });
        int window = Math.max(4, parallel * 4);
        Iterator<C> next = cases.iterator();
        try {
            Deque<Future<R>> ahead = new ArrayDeque<>(window);
            long finished = 0;
            long lastReport = System.nanoTime();
            int failures = 0;
            while (next.hasNext() || !ahead.isEmpty()) {
                while (next.hasNext() && ahead.size() < window) {
                    C c = next.next();
                    ahead.add(pool.submit(() -> work.apply(c)));
                }
                Future<R> future = ahead.poll();
                R result;
                while (true) {
                    try {
                        result = future.get(Math.min(1000, Math.max(1, progressInterval.toMillis())), TimeUnit.MILLISECONDS);
                        break;
                    } catch (TimeoutException e) {
                        if (System.nanoTime() - lastReport > progressNanos) {
                            log.info("progress: " + finished + "/" + cases.size() + " cases done, " + failures + " failing so far");
                            lastReport = System.nanoTime();
                        }
                    }
                }
                if (failing.test(result)) {
                    failures++;
                }
                finished++;
                done.accept(result);
                if (System.nanoTime() - lastReport > progressNanos) {
                    log.info("progress: " + finished + "/" + cases.size() + " cases done, " + failures + " failing so far");
                    lastReport = System.nanoTime();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PatchgradeException(ErrorName.INTERRUPTED, "grading was interrupted", e);
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
            if (next instanceof AutoCloseable reading) {
                try {
                    reading.close();
                } catch (Exception e) {
                    log.warn("cannot close the cases: " + e.getMessage());
                }
            }
        }
    }
}
