package dev.patchgrade.core.launch;

import dev.patchgrade.core.GradeLog;
import java.time.Duration;
import java.util.List;

/**
 * Run in a separate JVM by {@link LifelineTest}: opens a launcher (sandbox mode in the first argument),
 * starts a long child (the rest), says so, and waits to be killed.
 */
public final class LifelineProbe {
    private LifelineProbe() {}

    public static void main(String[] args) throws Exception {
        SandboxSpec.Mode mode = SandboxSpec.Mode.valueOf(args[0]);
        Launcher launcher = Launchers.open(GradeLog.SILENT, SandboxSpec.of(mode).showingAlso(dev.patchgrade.core.grade.RunInputs.named(List.of(args).subList(1, args.length), null)));
        Thread runner = new Thread(() -> launcher.launch(LaunchRequest.of(List.of(args).subList(1, args.length))
                .withTimeout(Duration.ofSeconds(120))));
        runner.setDaemon(true);
        runner.start();
        System.out.println("launched");
        System.out.flush();
        Thread.sleep(120_000);
    }
}
