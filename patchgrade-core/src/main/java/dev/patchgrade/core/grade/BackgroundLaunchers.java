package dev.patchgrade.core.grade;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * A goal's launchers, opened on a thread of their own while the goal reads its oracles and closed on a
 * thread of their own while it checks them. Starting a helper is a fork, an exec and (sandboxed)
 * namespaces; stopping one is waiting for it to exit: tens of milliseconds a grade that the goal's own
 * reading of thousands of gold files can hide. Whatever was opened is closed, whichever step failed.
 */
final class BackgroundLaunchers implements AutoCloseable {
    private final FutureTask<AutoCloseable> opening;
    private FutureTask<Void> closing;

    private BackgroundLaunchers(Callable<AutoCloseable> open) {
        this.opening = new FutureTask<>(open);
    }

    /** Starts {@code open} at once; {@link #await} gives its launchers or its exception. */
    static BackgroundLaunchers open(Callable<AutoCloseable> open) {
        BackgroundLaunchers launchers = new BackgroundLaunchers(open);
        start(launchers.opening, "patchgrade-open-launchers");
        return launchers;
    }

    /** Waits for the launchers to be open; the exception opening them threw is thrown here. */
    void await() throws Exception {
        opened();
    }

    /** Starts closing the launchers; {@link #close} waits for it. Only once every run has ended. */
    void closeInBackground() {
        if (closing != null) {
            return;
        }
        closing = new FutureTask<>(() -> {
            AutoCloseable launchers = opened();
            launchers.close();
            return null;
        });
        start(closing, "patchgrade-close-launchers");
    }

    /** Closes the launchers (or waits for {@link #closeInBackground} to have closed them), also when opening them failed: then nothing is open. */
    @Override
    public void close() throws Exception {
        if (closing == null) {
            AutoCloseable launchers;
            try {
                launchers = opened();
            } catch (Exception notOpened) {
                return;
            }
            launchers.close();
            return;
        }
        outcome(closing);
    }

    private AutoCloseable opened() throws Exception {
        return outcome(opening);
    }

    /**
     * A task's result once it is done. An interrupt does not cut the wait short: what the task opens must be known,
     * to be closed (opening is bounded by the helper's start-up deadline); the interrupt is kept for the caller.
     */
    private static <T> T outcome(FutureTask<T> task) throws Exception {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return task.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof Exception exception) {
                        throw exception;
                    }
                    if (cause instanceof Error error) {
                        throw error;
                    }
                    throw e;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void start(Runnable task, String name) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
    }
}
