package dev.patchgrade.core.launch;

import dev.patchgrade.core.GradeLog;
import java.time.Duration;
import java.util.List;

/** Run in a separate JVM by {@link LifelineTest}: starts a long child, says so, and waits to be killed. */
public final class LifelineProbe {
    private LifelineProbe() {}

    public static void main(String[] args) throws Exception {
        Launcher launcher = Launchers.open(GradeLog.SILENT);
        Thread runner = new Thread(() -> launcher.launch(LaunchRequest.of(List.of(args[0])).withTimeout(Duration.ofSeconds(120))));
        runner.setDaemon(true);
        runner.start();
        System.out.println("launched");
        System.out.flush();
        Thread.sleep(120_000);
    }
}
