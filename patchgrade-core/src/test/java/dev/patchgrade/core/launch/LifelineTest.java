package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.Fixtures;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A JVM killed with SIGKILL runs no shutdown hook; its children must die anyway (the helper's lifeline pipe). */
class LifelineTest {
    @Test
    void childrenDieWithAKilledJvm() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process jvm = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "-Dpatchgrade.cacheDir=" + NativeHelper.cacheRoot(), LifelineProbe.class.getName(), Fixtures.command("ignore_term_sleeper"))
                .redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(jvm.getInputStream()));
            assertThat(out.readLine()).isEqualTo("launched");
            for (int i = 0; i < 500 && Fixtures.alive("ignore_term_sleeper").isEmpty(); i++) {
                Thread.sleep(10);
            }
            assertThat(Fixtures.alive("ignore_term_sleeper")).as("the probe's child runs").isNotEmpty();
        } finally {
            jvm.destroyForcibly();
            assertThat(jvm.waitFor(10, TimeUnit.SECONDS)).isTrue();
        }
        for (int i = 0; i < 200 && !Fixtures.alive("ignore_term_sleeper").isEmpty(); i++) {
            Thread.sleep(10);
        }
        assertThat(Fixtures.alive("ignore_term_sleeper")).as("the child died with the JVM that launched it").isEmpty();
    }
}
