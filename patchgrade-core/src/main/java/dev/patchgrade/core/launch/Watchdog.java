package dev.patchgrade.core.launch;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Deadlines for waits on helpers. One thread looks at the armed deadlines every {@link #PERIOD}, so
 * arming and disarming one is a set insertion and removal: a scheduled task per wait woke the timer
 * thread twice (on scheduling and on cancelling), which on a busy 2-core VM cost more than the rest of
 * the JVM's work per launch. A deadline fires at most one period late.
 */
final class Watchdog implements AutoCloseable {
    static final Duration PERIOD = Duration.ofMillis(25);

    private final Set<Alarm> armed = ConcurrentHashMap.newKeySet();
    private final Thread thread;
    private volatile boolean closed;

    /** One armed deadline. */
    static final class Alarm {
        private final long dueNanos;
        private final Runnable onExpiry;
        private volatile boolean fired;

        private Alarm(long dueNanos, Runnable onExpiry) {
            this.dueNanos = dueNanos;
            this.onExpiry = onExpiry;
        }

        /** Whether the deadline passed and {@code onExpiry} ran (or is running). */
        boolean fired() {
            return fired;
        }
    }

    Watchdog(String name) {
        thread = new Thread(this::watch, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Runs {@code onExpiry} on the watchdog's thread once {@code after} has passed, unless disarmed first. */
    Alarm arm(Duration after, Runnable onExpiry) {
        Alarm alarm = new Alarm(System.nanoTime() + after.toNanos(), onExpiry);
        armed.add(alarm);
        return alarm;
    }

    /** Takes the alarm back; from the moment this returns, it does not fire (it may have fired already: see {@link Alarm#fired}). */
    void disarm(Alarm alarm) {
        armed.remove(alarm);
    }

    private void watch() {
        while (!closed) {
            try {
                TimeUnit.NANOSECONDS.sleep(PERIOD.toNanos());
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            for (Alarm alarm : armed) {
                // Whoever removes the alarm owns it: the watchdog fires it, or the waiter disarmed it in time.
                if (now - alarm.dueNanos >= 0 && armed.remove(alarm)) {
                    alarm.fired = true;
                    try {
                        alarm.onExpiry.run();
                    } catch (RuntimeException e) {
                        // A failed kill must not stop the deadlines of the other waits.
                    }
                }
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
