package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.Fixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sandbox's seccomp filter denies what its tables do not list, with ENOSYS, and the honest programs it was
 * built from still run: threads, sanitizer builds, Valgrind.
 */
class DefaultDenyFilterTest {
    @TempDir
    Path dir;

    private Launcher open() {
        return SandboxedRuns.open(dir);
    }

    /** A timeout far beyond the work, so that a busy machine cannot turn a Valgrind or TSan run into a timeout. */
    private LaunchResult run(Launcher launcher, String... command) {
        return launcher.launch(LaunchRequest.of(List.of(command)).withWorkingDirectory(dir).withTimeout(Duration.ofSeconds(180)));
    }

    private String probe(Launcher launcher, String mode) {
        return run(launcher, Fixtures.command("syscall_probe"), mode).stdout().excerpt();
    }

    private String probeOutside(String mode) throws Exception {
        return Fixtures.outputOutsideTheSandbox("syscall_probe", dir, mode);
    }

    private static void assumeX86_64() {
        Assumptions.assumeTrue("amd64".equals(System.getProperty("os.arch")), "i386 and x32 calls exist on x86_64 only");
    }

    @Test
    void aCallNoTableListsFailsWithEnosysInsideAndIsNotFilteredOutside() throws Exception {
        try (Launcher launcher = open()) {
            assertThat(probe(launcher, "unlisted")).isEqualTo("landlock refused errno=38\nnr1000 refused errno=38\n");
            assertThat(probe(launcher, "kexec")).isEqualTo("kexec_load refused errno=38\n");
        }
        // Outside, the kernel answers landlock itself: its ABI version, or EOPNOTSUPP where Landlock is off.
        assertThat(probeOutside("unlisted")).as("the kernel has the call").matches("landlock (ok|refused errno=95)\nnr1000 refused errno=38\n");
    }

    @Test
    void theI386CallsOfInt0x80AreFilteredByTheirOwnTable() throws Exception {
        assumeX86_64();
        String outside = probeOutside("compat");
        Assumptions.assumeTrue(outside.startsWith("compat-getpid ok"), "this kernel runs no i386 calls (no ia32 emulation): " + outside);
        assertThat(outside).matches("compat-getpid ok\ncompat-landlock (ok|refused errno=95)\n");
        try (Launcher launcher = open()) {
            assertThat(probe(launcher, "compat")).isEqualTo("compat-getpid ok\ncompat-landlock refused errno=38\n");
        }
    }

    @Test
    void x32CallsAreRefused() {
        assumeX86_64();
        try (Launcher launcher = open()) {
            assertThat(probe(launcher, "x32")).isEqualTo("x32-getpid refused errno=38\n");
        }
    }

    @Test
    void threadedProgramsAndTheirSanitizerBuildsRunClean() {
        try (Launcher launcher = open()) {
            for (String build : List.of("threads", "threads.asan", "threads.tsan")) {
                LaunchResult result = run(launcher, Fixtures.command(build));
                assertThat(result.exitCode()).as(build + ": " + result.stderr().excerpt()).isZero();
                assertThat(result.stdout().excerpt()).as(build).isEqualTo("threads ok total=16000\n");
                assertThat(result.stderr().excerpt()).as(build + " reports nothing").isEmpty();
            }
        }
    }

    /** LeakSanitizer stops the program's threads with ptrace at exit: its report, not its "fatal error". */
    @Test
    void leakSanitizerStillReportsALeak() {
        try (Launcher launcher = open()) {
            LaunchResult result = run(launcher, Fixtures.command("threads.asan"), "leak");
            assertThat(result.stdout().excerpt()).isEqualTo("threads ok total=16000\n");
            assertThat(result.stderr().excerpt()).contains("ERROR: LeakSanitizer: detected memory leaks").doesNotContain("fatal error");
            assertThat(result.exitCode()).isNotZero();
        }
    }

    @Test
    void valgrindRunsAThreadedProgramClean() {
        Path valgrind = Path.of("/usr/bin/valgrind");
        Assumptions.assumeTrue(Files.isExecutable(valgrind), "no valgrind here");
        try (Launcher launcher = open()) {
            List<String> command = new ArrayList<>(List.of(valgrind.toString(), "-q", "--error-exitcode=9", Fixtures.command("threads")));
            LaunchResult result = run(launcher, command.toArray(String[]::new));
            assertThat(result.exitCode()).as(result.stderr().excerpt()).isZero();
            assertThat(result.stdout().excerpt()).isEqualTo("threads ok total=16000\n");
            assertThat(result.stderr().excerpt()).isEmpty();
        }
    }
}
