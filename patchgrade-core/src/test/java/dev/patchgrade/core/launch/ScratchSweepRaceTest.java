package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Builds of several projects share one scratch base, and each launcher that opens sweeps the directories whose lock
 * is free. A directory must never be seen by another JVM's sweep between its creation and its lock: a build lost a
 * live helper's pid file that way.
 */
class ScratchSweepRaceTest {
    @TempDir
    Path base;

    /** The other JVM: sweeps {@code args[0]} until {@code args[1]} appears. */
    public static void main(String[] args) throws Exception {
        Path base = Paths.get(args[0]);
        Path stop = Paths.get(args[1]);
        Path sweeping = Paths.get(args[1] + ".sweeping");
        while (!Files.exists(stop)) {
            Scratch.sweepAbandoned(base);
            if (!Files.exists(sweeping)) {
                Files.writeString(sweeping, "sweeping");
            }
        }
    }

    @Test
    void anotherJvmsSweepNeverTakesADirectoryBeingMade() throws Exception {
        Path stop = base.resolveSibling(base.getFileName() + ".stop");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process sweeper = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), ScratchSweepRaceTest.class.getName(),
                base.toString(), stop.toString()).inheritIO().start();
        Path sweeping = Path.of(stop + ".sweeping");
        for (int i = 0; i < 6000 && !Files.exists(sweeping) && sweeper.isAlive(); i++) {
            Thread.sleep(10);
        }
        assertThat(sweeping).as("the other JVM sweeps").exists();
        System.setProperty(Scratch.BASE_PROPERTY, base.toString());
        List<String> lost = new ArrayList<>();
        try {
            for (int i = 0; i < 2000 && sweeper.isAlive(); i++) {
                Scratch scratch = Scratch.create();
                // The sweeper runs all along: a directory it took in the window is gone, or lost its lock file.
                if (!Files.isRegularFile(scratch.directory().resolve(".lock"))) {
                    lost.add(scratch.directory().getFileName().toString());
                }
                scratch.delete();
            }
            assertThat(sweeper.isAlive()).as("the sweeping JVM ran throughout").isTrue();
        } finally {
            System.clearProperty(Scratch.BASE_PROPERTY);
            Files.writeString(stop, "stop");
            if (!sweeper.waitFor(30, TimeUnit.SECONDS)) {
                sweeper.destroyForcibly();
            }
            Files.deleteIfExists(stop);
            Files.deleteIfExists(sweeping);
        }
        assertThat(lost).as("scratch directories another JVM's sweep deleted while they were made").isEmpty();
    }
}
