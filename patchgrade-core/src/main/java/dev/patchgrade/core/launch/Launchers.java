package dev.patchgrade.core.launch;

import dev.patchgrade.core.GradeLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Opens the best launcher this machine supports. */
public final class Launchers {
    /** Set to {@code direct} to skip the helper (the path used when no C compiler is available). */
    public static final String MODE_PROPERTY = "patchgrade.launcher";
    static final Duration GRACE = Duration.ofMillis(500);

    private Launchers() {}

    /**
     * A launcher whose scratch files live in a fresh temporary directory, removed on close. Where the
     * helper cannot be had, the returned launcher still runs commands and says, through {@code log},
     * which figures it cannot measure.
     */
    public static Launcher open(GradeLog log) {
        Path scratch;
        try {
            scratch = Files.createTempDirectory("patchgrade-launch-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a scratch directory for child output", e);
        }
        Launcher inner = choose(log, scratch);
        log.debug("launching through " + inner.description());
        return new ScratchOwning(inner, scratch);
    }

    private static Launcher choose(GradeLog log, Path scratch) {
        if ("direct".equals(System.getProperty(MODE_PROPERTY))) {
            return degraded(log, scratch, MODE_PROPERTY + "=direct was set");
        }
        String os = System.getProperty("os.name", "").toLowerCase();
        if (!(os.contains("linux") || os.contains("mac"))) {
            return degraded(log, scratch, "the launch helper supports Linux and macOS, not " + os);
        }
        NativeHelper.Located located = NativeHelper.locate(log);
        if (located.binary() == null) {
            return degraded(log, scratch, located.problem());
        }
        String probe = probe(located.binary());
        if (probe != null) {
            return degraded(log, scratch, "the launch helper " + located.binary() + " does not run: " + probe);
        }
        return new HelperLauncher(located.binary(), scratch, GRACE);
    }

    private static Launcher degraded(GradeLog log, Path scratch, String reason) {
        log.warn("patchgrade cannot measure peak RSS, CPU time, page faults or block I/O here: " + reason
                + ". Commands still run; those figures are reported as unavailable, and grading against them is an error.");
        return new DirectLauncher(scratch, GRACE, reason);
    }

    private static String probe(Path helper) {
        try {
            Process process = new ProcessBuilder(helper.toString(), "--version").redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes()).strip();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return "no answer in 10 s";
            }
            return process.exitValue() == 0 && output.startsWith("pg-launch-helper") ? null : "answered '" + output + "'";
        } catch (IOException e) {
            return e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    private static final class ScratchOwning implements Launcher {
        private final Launcher inner;
        private final Path scratch;

        ScratchOwning(Launcher inner, Path scratch) {
            this.inner = inner;
            this.scratch = scratch;
        }

        @Override
        public LaunchResult launch(LaunchRequest request) {
            return inner.launch(request);
        }

        @Override
        public boolean measuresUsage() {
            return inner.measuresUsage();
        }

        @Override
        public String description() {
            return inner.description();
        }

        @Override
        public void close() {
            inner.close();
            try (Stream<Path> files = Files.walk(scratch)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            } catch (IOException e) {
                // a temporary directory left behind is harmless
            }
        }
    }
}
