package dev.patchgrade.core.launch;

import dev.patchgrade.core.hashing.Sha256;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.Fixtures;
import dev.patchgrade.core.GradeLog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Launches the real fixture programs through the helper. */
class LauncherTest {
    private static Launcher launcher;

    @BeforeAll
    static void open() {
        launcher = Launchers.open(GradeLog.SILENT);
        assertThat(launcher.measuresUsage()).as(launcher.description()).isTrue();
    }

    @AfterAll
    static void close() {
        launcher.close();
    }

    private static LaunchResult run(String fixture, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Fixtures.command(fixture));
        command.addAll(List.of(args));
        return launcher.launch(LaunchRequest.of(command));
    }

    @Test
    void reportsExitCodeAndHashesBothStreams() {
        LaunchResult result = run("crash", "exit:3");
        assertThat(result.started()).isTrue();
        assertThat(result.exitCode()).isEqualTo(3);
        assertThat(result.signal()).isNull();
        assertThat(result.timedOut()).isFalse();
        assertThat(result.stdout().bytes()).isZero();
        assertThat(result.stdout().sha256()).isEqualTo(Sha256.of(new byte[0]));
        assertThat(result.stderr().excerpt()).isEqualTo("about to exit:3\n");
        assertThat(result.stderr().sha256())
                .isEqualTo(Sha256.of("about to exit:3\n".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aChildSeesItsEnvironmentInTheOrderOfItsNames() {
        Map<String, String> extra = Map.of("ZETA", "1", "ALPHA", "2", "MIDDLE", "3", "UBSAN_OPTIONS", "x", "ASAN_OPTIONS", "y");
        LaunchRequest request = new LaunchRequest(List.of("/usr/bin/env"), null, ChildEnvironment.pinned(extra), null,
                LaunchRequest.DEFAULT_TIMEOUT, LaunchRequest.DEFAULT_OUTPUT_LIMIT, null, false);
        List<String> names = launcher.launch(request).stdout().excerpt().lines().map(line -> line.substring(0, line.indexOf('='))).toList();
        assertThat(names).contains("ZETA", "ALPHA", "MIDDLE", "UBSAN_OPTIONS", "ASAN_OPTIONS").isSorted();
    }

    @Test
    void exitStatus127OfARealProgramIsNotACouldNotStart() {
        LaunchResult result = run("crash", "exit:127");
        assertThat(result.started()).isTrue();
        assertThat(result.exitCode()).isEqualTo(127);
    }

    @Test
    void namesTheTerminatingSignal() {
        assertThat(run("crash", "segv").signal()).isEqualTo("SIGSEGV");
        assertThat(run("crash", "abort").signal()).isEqualTo("SIGABRT");
        LaunchResult killed = run("crash", "kill");
        assertThat(killed.signal()).isEqualTo("SIGKILL");
        assertThat(killed.exitCode()).isNull();
        assertThat(killed.timedOut()).isFalse();
    }

    @Test
    void tellsWhyACommandCouldNotStart(@TempDir Path dir) throws IOException {
        LaunchResult missing = launcher.launch(LaunchRequest.of(List.of(dir.resolve("nope").toString())));
        assertThat(missing.started()).isFalse();
        assertThat(missing.startFailure().kind()).isEqualTo(StartFailure.Kind.NOT_FOUND);
        assertThat(missing.exitCode()).isNull();

        LaunchResult notOnPath = launcher.launch(LaunchRequest.of(List.of("patchgrade-no-such-command")));
        assertThat(notOnPath.startFailure().kind()).isEqualTo(StartFailure.Kind.NOT_FOUND);

        LaunchResult notExecutable = launcher.launch(LaunchRequest.of(List.of(Fixtures.command("not-executable"))));
        assertThat(notExecutable.startFailure().kind()).isEqualTo(StartFailure.Kind.NOT_EXECUTABLE);

        LaunchResult directory = launcher.launch(LaunchRequest.of(List.of(dir.toString())));
        assertThat(directory.startFailure().kind()).isEqualTo(StartFailure.Kind.NOT_EXECUTABLE);
        assertThat(directory.startFailure().describe()).contains("directory");

        LaunchResult noShebang = launcher.launch(LaunchRequest.of(List.of(Fixtures.command("no-shebang"))));
        assertThat(noShebang.startFailure().kind()).isEqualTo(StartFailure.Kind.BAD_FORMAT);
        assertThat(noShebang.startFailure().describe()).contains("/bin/sh");

        Path badInterpreter = dir.resolve("bad-interpreter");
        Files.writeString(badInterpreter, "#!/no/such/interpreter\n");
        badInterpreter.toFile().setExecutable(true);
        LaunchResult interpreter = launcher.launch(LaunchRequest.of(List.of(badInterpreter.toString())));
        assertThat(interpreter.startFailure().kind()).isEqualTo(StartFailure.Kind.NOT_FOUND);
        assertThat(interpreter.startFailure().describe()).contains("interpreter");
    }

    @Test
    void timeoutKillsAChildThatIgnoresSigterm() throws InterruptedException {
        // Long enough for the child to ignore SIGTERM before it comes, even when a busy machine starts it late.
        LaunchResult result = launcher.launch(LaunchRequest.of(List.of(Fixtures.command("ignore_term_sleeper")))
                .withTimeout(Duration.ofSeconds(3)));
        assertThat(result.timedOut()).isTrue();
        assertThat(result.signal()).isEqualTo("SIGKILL");
        assertThat(result.stdout().excerpt()).isEqualTo("ignoring SIGTERM\n");
        assertThat(Fixtures.aliveAfterSettling("ignore_term_sleeper")).isEmpty();
    }

    @Test
    void aGrandchildHoldingStdoutNeitherHangsTheRunNorOutlivesIt() throws InterruptedException {
        for (String mode : List.of("bg", "setsid")) {
            LaunchResult result = launcher.launch(LaunchRequest.of(List.of(Fixtures.command("escaping_grandchild"), mode))
                    .withTimeout(Duration.ofSeconds(20)));
            // Waiting for the grandchild's 30 s would have hit the 20 s timeout: no clock reading needed.
            assertThat(result.timedOut()).as(mode + ": graded in the parent's time, not the grandchild's 30 s").isFalse();
            assertThat(result.exitCode()).as(mode).isZero();
            assertThat(result.stdout().excerpt()).isEqualTo("parent done\n");
            assertThat(Fixtures.aliveAfterSettling("escaping_grandchild")).as(mode).isEmpty();
        }
    }

    @Test
    void childrenForkedInBulkAreAllGoneAfterTheRun() throws InterruptedException {
        LaunchResult result = run("fork_many", "16");
        assertThat(result.exitCode()).isZero();
        assertThat(result.stdout().excerpt()).isEqualTo("forked 16\n");
        assertThat(Fixtures.aliveAfterSettling("fork_many")).isEmpty();
    }

    @Test
    void outputPastTheCapStopsTheRunWithBoundedFiles(@TempDir Path dir) {
        long cap = 1 << 20;
        LaunchResult result = launcher.launch(LaunchRequest.of(List.of(Fixtures.command("print_forever")))
                .withOutputLimit(cap).withTimeout(Duration.ofSeconds(20)).keepingOutputAs(dir.resolve("forever")));
        assertThat(result.outputLimited()).isTrue();
        assertThat(result.timedOut()).isFalse();
        assertThat(result.stdout().bytes()).isLessThanOrEqualTo(cap);
        assertThat(dir.resolve("forever.stdout")).hasSize(result.stdout().bytes());
    }

    @Test
    void hashesLargeOutputCorrectlyWithHeadAndTailExcerpts() throws Exception {
        LaunchResult result = run("write_bytes", "3");
        MessageDigest expected = Sha256.digest();
        byte[] block = new byte[1 << 20];
        for (int i = 0; i < block.length; i++) {
            block[i] = (byte) ('a' + i % 26);
        }
        for (int i = 0; i < 3; i++) {
            expected.update(block);
        }
        assertThat(result.stdout().bytes()).isEqualTo(3L << 20);
        assertThat(result.stdout().sha256()).isEqualTo(Sha256.hex(expected.digest()));
        assertThat(result.stdout().head()).hasSize(StreamHashing.DEFAULT_EXCERPT_BYTES);
        assertThat(result.stdout().tail()).hasSize(StreamHashing.DEFAULT_EXCERPT_BYTES);
        int lastIndex = (3 << 20) - 1;
        assertThat(result.stdout().tail()[StreamHashing.DEFAULT_EXCERPT_BYTES - 1]).isEqualTo((byte) ('a' + (lastIndex % (1 << 20)) % 26));
        assertThat(result.stdout().excerpt()).contains("bytes not shown");
    }

    @Test
    void childStartsInACleanState(@TempDir Path dir) {
        LaunchRequest request = LaunchRequest.of(List.of(Fixtures.command("child_state"), "first arg", "ü"))
                .withEnvironment(ChildEnvironment.pinned(Map.of("EXTRA", "yes")))
                .withStdin("fed".getBytes(StandardCharsets.UTF_8))
                .withWorkingDirectory(dir);
        LaunchResult result = launcher.launch(request);
        String out = result.stdout().excerpt();
        assertThat(out).doesNotContain("blocked ").doesNotContain("ignored ").doesNotContain("fd ");
        assertThat(out).contains("arg first arg\n", "arg ü\n", "stdin fed\n", "cwd " + realPath(dir) + "\n");
        List<String> env = out.lines().filter(line -> line.startsWith("env ")).sorted().toList();
        assertThat(env).containsExactly("env EXTRA=yes", "env LC_ALL=C", "env PATH=" + System.getenv("PATH"), "env TZ=UTC");
        assertThat(result.stderr().excerpt()).isEqualTo("state reported\n");
    }

    @Test
    void stdinIsEmptyUnlessGiven() {
        LaunchResult result = run("child_state");
        assertThat(result.stdout().excerpt()).doesNotContain("stdin ");
    }

    @Test
    void servesSeveralThreadsAtOnce() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<String>> outputs = new ArrayList<>();
            // Enough launches that a helper handed to the next thread before its output was hashed shows up.
            for (int i = 0; i < 400; i++) {
                String marker = "call-" + i;
                outputs.add(pool.submit(() -> run("child_state", marker).stdout().excerpt()));
            }
            for (int i = 0; i < outputs.size(); i++) {
                assertThat(outputs.get(i).get()).contains("arg call-" + i + "\n").doesNotContain("arg call-" + (i + 100));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void closingTheLauncherEndsARunningChild() throws Exception {
        Launcher own = Launchers.open(GradeLog.SILENT);
        Thread runner = new Thread(() -> {
            try {
                own.launch(LaunchRequest.of(List.of(Fixtures.command("ignore_term_sleeper"))).withTimeout(Duration.ofSeconds(60)));
            } catch (RuntimeException expected) {
                // the helper goes away under the launch
            }
        });
        runner.start();
        for (int i = 0; i < 6000 && Fixtures.alive("ignore_term_sleeper").isEmpty(); i++) {
            Thread.sleep(10);
        }
        assertThat(Fixtures.alive("ignore_term_sleeper")).hasSize(1);
        own.close();
        runner.join(10_000);
        assertThat(runner.isAlive()).isFalse();
        assertThat(Fixtures.aliveAfterSettling("ignore_term_sleeper")).isEmpty();
    }

    /**
     * Without the sandbox too, each run of a slot gets a new output file, not the last one truncated:
     * nothing a run sets on its file reaches the next, and (on ext4) the truncate-and-rewrite does not
     * start writeback at every close.
     */
    @Test
    void withoutTheSandboxARunCannotCacheAnAnswerOnItsSlotsStdoutFile(@TempDir Path kept) {
        try (Launcher open = Launchers.open(GradeLog.SILENT, SandboxSpec.of(SandboxSpec.Mode.OFF))) {
            String candidate = Fixtures.command("attacker");
            open.launch(LaunchRequest.of(List.of(candidate, "slot-store", "4242")));
            assertThat(open.launch(LaunchRequest.of(List.of(candidate, "slot-load"))).stdout().excerpt()).doesNotContain("4242");
            Path prefix = kept.resolve("case");
            open.launch(LaunchRequest.of(List.of(candidate, "slot-store", "4242")).keepingOutputAs(prefix));
            LaunchResult again = open.launch(LaunchRequest.of(List.of(candidate, "slot-load")).keepingOutputAs(prefix));
            assertThat(again.stdout().excerpt()).doesNotContain("4242");
            assertThat(again.stdout().file()).hasContent(again.stdout().excerpt().strip());
        }
    }

    private static Path realPath(Path dir) {
        try {
            return dir.toRealPath();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
