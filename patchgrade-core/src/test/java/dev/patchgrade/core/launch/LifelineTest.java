package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.Fixtures;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Maven interrupted mid-grade: Ctrl-C or SIGTERM runs the shutdown hook, SIGKILL runs nothing. Either
 * way the children die (the helper's lifeline pipe), and no scratch directory outlives the next launcher.
 */
class LifelineTest {
    @TempDir
    Path temp;

    @ParameterizedTest(name = "{0} with sandbox {1}")
    @CsvSource({"SIGKILL, OFF", "SIGKILL, AUTO", "SIGTERM, OFF", "SIGTERM, AUTO"})
    void childrenAndScratchDieWithAnInterruptedJvm(String signal, SandboxSpec.Mode mode) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process jvm = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "-Djava.io.tmpdir=" + temp, "-D" + Scratch.BASE_PROPERTY + "=" + temp,
                "-Dpatchgrade.cacheDir=" + NativeHelper.cacheRoot(), LifelineProbe.class.getName(), mode.name(),
                Fixtures.command("ignore_term_sleeper"))
                .redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(jvm.getInputStream()));
            assertThat(out.readLine()).isEqualTo("launched");
            for (int i = 0; i < 6000 && Fixtures.alive("ignore_term_sleeper").isEmpty(); i++) {
                Thread.sleep(10);
            }
            assertThat(Fixtures.alive("ignore_term_sleeper")).as("the probe's child runs").isNotEmpty();
            assertThat(scratchDirectories()).hasSize(1);
        } finally {
            if (signal.equals("SIGKILL")) {
                jvm.destroyForcibly();
            } else {
                jvm.destroy();
            }
            assertThat(jvm.waitFor(20, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(Fixtures.aliveAfterSettling("ignore_term_sleeper")).as("the child died with the JVM that launched it").isEmpty();
        if (signal.equals("SIGTERM")) {
            assertThat(scratchDirectories()).as("the shutdown hook removed the scratch directory").isEmpty();
        } else {
            assertThat(Scratch.sweepAbandoned(temp)).as("the next launcher removes what a killed JVM left").isEqualTo(1);
            assertThat(scratchDirectories()).isEmpty();
        }
    }

    private List<Path> scratchDirectories() throws IOException {
        try (Stream<Path> entries = Files.list(temp)) {
            return entries.filter(p -> p.getFileName().toString().startsWith(Scratch.PREFIX)).toList();
        }
    }

    @org.junit.jupiter.api.Test
    void openingASecondLauncherKeepsTheFirstOnesScratchLocked() throws Exception {
        try (Launcher first = Launchers.open(dev.patchgrade.core.GradeLog.SILENT);
                Launcher second = Launchers.open(dev.patchgrade.core.GradeLog.SILENT)) {
            // Another JVM's sweep must find both locked; a child process stands in for that JVM.
            Path python = Path.of("/usr/bin/python3");
            org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(python), "needs /usr/bin/python3 to probe POSIX locks");
            Process probe = new ProcessBuilder(python.toString(), "-c", "import fcntl,sys\n"
                    + "free=0\n"
                    + "for d in sys.argv[1:]:\n"
                    + "    f=open(d+'/.lock','a')\n"
                    + "    try:\n"
                    + "        fcntl.lockf(f, fcntl.LOCK_EX|fcntl.LOCK_NB); free+=1\n"
                    + "    except OSError: pass\n"
                    + "print(free)", Launchers.scratchOf(first).toString(), Launchers.scratchOf(second).toString())
                    .redirectErrorStream(true).start();
            String free = new String(probe.getInputStream().readAllBytes()).strip();
            probe.waitFor(10, TimeUnit.SECONDS);
            assertThat(free).as("no scratch lock of this JVM is free for another to sweep").isEqualTo("0");
            assertThat(first.launch(LaunchRequest.of(List.of("/bin/true"))).exitedZero()).isTrue();
        }
    }
}
