package dev.patchgrade.core.grade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class BackgroundLaunchersTest {
    /** A launcher stand-in that counts its closes and says on which thread they ran. */
    private static final class Counted implements AutoCloseable {
        final AtomicInteger closes = new AtomicInteger();
        final AtomicReference<String> closedOn = new AtomicReference<>();
        private final RuntimeException failure;

        Counted(RuntimeException failure) {
            this.failure = failure;
        }

        @Override
        public void close() {
            closes.incrementAndGet();
            closedOn.set(Thread.currentThread().getName());
            if (failure != null) {
                throw failure;
            }
        }
    }

    @Test
    void opensOnAnotherThreadWhileTheCallerWorks() throws Exception {
        CountDownLatch callerWorked = new CountDownLatch(1);
        AtomicReference<String> openedOn = new AtomicReference<>();
        Counted launcher = new Counted(null);
        BackgroundLaunchers launchers = BackgroundLaunchers.open(() -> {
            // Only returns once the caller has gone on: opening does not hold the caller up.
            assertThat(callerWorked.await(10, TimeUnit.SECONDS)).isTrue();
            openedOn.set(Thread.currentThread().getName());
            return launcher;
        });
        callerWorked.countDown();
        launchers.await();
        assertThat(openedOn.get()).isEqualTo("patchgrade-open-launchers");
        assertThat(launcher.closes.get()).isZero();
        launchers.close();
        assertThat(launcher.closes.get()).isEqualTo(1);
    }

    @Test
    void theOpeningsExceptionIsThrownByAwaitAndNothingIsClosed() throws Exception {
        IllegalStateException refused = new IllegalStateException("sandbox refused");
        BackgroundLaunchers launchers = BackgroundLaunchers.open(() -> {
            throw refused;
        });
        assertThatThrownBy(launchers::await).isSameAs(refused);
        launchers.close(); // nothing was opened: nothing to close, and no second report of the same failure
    }

    @Test
    void launchersOpenedForAGradeThatFailedBeforeRunningAreClosed() throws Exception {
        Counted launcher = new Counted(null);
        BackgroundLaunchers launchers = BackgroundLaunchers.open(() -> launcher);
        // The goal failed reading its gold before it waited for the launchers.
        launchers.close();
        assertThat(launcher.closes.get()).isEqualTo(1);
    }

    @Test
    void closingInTheBackgroundClosesOnceAndCloseWaitsForIt() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger closes = new AtomicInteger();
        AutoCloseable slow = () -> {
            assertThat(release.await(10, TimeUnit.SECONDS)).isTrue();
            closes.incrementAndGet();
        };
        BackgroundLaunchers launchers = BackgroundLaunchers.open(() -> slow);
        launchers.await();
        launchers.closeInBackground();
        launchers.closeInBackground();
        assertThat(closes.get()).isZero();
        release.countDown();
        launchers.close();
        assertThat(closes.get()).isEqualTo(1);
    }

    @Test
    void aFailedBackgroundCloseIsThrownByClose() throws Exception {
        IllegalStateException stuck = new IllegalStateException("helper did not exit");
        Counted launcher = new Counted(stuck);
        BackgroundLaunchers launchers = BackgroundLaunchers.open(() -> launcher);
        launchers.await();
        launchers.closeInBackground();
        assertThatThrownBy(launchers::close).isSameAs(stuck);
        assertThat(launcher.closedOn.get()).isEqualTo("patchgrade-close-launchers");
    }

    @Test
    void anInterruptedCallerStillGetsTheLaunchersAndKeepsItsInterrupt() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Counted launcher = new Counted(null);
        BackgroundLaunchers launchers = BackgroundLaunchers.open(() -> {
            assertThat(release.await(10, TimeUnit.SECONDS)).isTrue();
            return launcher;
        });
        Thread.currentThread().interrupt();
        Thread releaser = new Thread(() -> {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            release.countDown();
        });
        releaser.start();
        try {
            launchers.await();
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
            releaser.join();
        }
        launchers.close();
        // What was opened is known, so it is closed: an interrupt never leaves a helper behind.
        assertThat(launcher.closes.get()).isEqualTo(1);
    }
}
