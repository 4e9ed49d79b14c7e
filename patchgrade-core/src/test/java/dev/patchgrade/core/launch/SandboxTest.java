package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.patchgrade.core.PatchgradeException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sandbox, seen from inside by real programs: what a child can read, write, see and keep. */
class SandboxTest {
    @TempDir
    Path dir;

    private final dev.patchgrade.core.RecordingLog log = new dev.patchgrade.core.RecordingLog();
    private final List<String> warnings = log.warnings;

    @org.junit.jupiter.api.BeforeEach
    void needsTheSandbox(org.junit.jupiter.api.TestInfo test) {
        String name = test.getTestMethod().orElseThrow().getName();
        if (!name.startsWith("requiredFails") && !name.startsWith("autoWarns") && !name.startsWith("offRuns")) {
            dev.patchgrade.core.SandboxAvailability.assumeAvailable();
        }
    }

    @AfterEach
    void userNamespacesAllowedAgain() {
        HelperTestHooks.denyUserNamespaces(false);
    }

    private SandboxSpec spec(List<Path> hidden, List<Path> shown, List<Path> oracles) {
        List<Path> all = new java.util.ArrayList<>(hidden);
        all.addAll(oracles);
        return dev.patchgrade.core.SandboxAvailability.view(SandboxSpec.Mode.REQUIRED, shown, List.of(), all);
    }

    /** A script with a timeout far beyond its work, so that a busy machine cannot turn it into a timeout. */
    private static LaunchResult sh(Launcher launcher, Path cwd, String script) {
        return launcher.launch(LaunchRequest.of(List.of("/bin/sh", "-c", script)).withWorkingDirectory(cwd)
                .withTimeout(java.time.Duration.ofSeconds(120)));
    }

    private static String out(LaunchResult result) {
        return result.stdout().excerpt();
    }

    private static String err(LaunchResult result) {
        return result.stderr().excerpt();
    }

    @Test
    void hidesOraclesAndKeepsTheRestReadOnly() throws Exception {
        Path project = Files.createDirectories(dir.resolve("project"));
        Path gold = Files.createDirectories(project.resolve("gold"));
        Files.writeString(gold.resolve("case.json"), "{\"secret\": 42}");
        Path cases = Files.writeString(project.resolve("cases.txt"), "golden answer\n");
        Files.writeString(project.resolve("input.txt"), "visible\n");
        try (Launcher launcher = Launchers.open(log, spec(List.of(), List.of(project), List.of(gold, cases)))) {
            assertThat(launcher.sandbox().active()).as(launcher.sandbox().describe()).isTrue();
            LaunchResult read = sh(launcher, project, "cat input.txt; ls gold; cat gold/case.json; cat cases.txt; echo end");
            assertThat(out(read)).isEqualTo("visible\nend\n");
            assertThat(err(read)).contains("gold/case.json").contains("cases.txt");
            LaunchResult write = sh(launcher, project, "echo x > input.txt; echo y > gold/new.json; touch fresh; rm cases.txt; echo done");
            assertThat(out(write)).isEqualTo("done\n");
            assertThat(err(write)).contains("Read-only file system");
        }
        assertThat(Files.readString(project.resolve("input.txt"))).isEqualTo("visible\n");
        assertThat(Files.readString(gold.resolve("case.json"))).isEqualTo("{\"secret\": 42}");
        assertThat(project.resolve("fresh")).doesNotExist();
        assertThat(cases).exists();
    }

    @Test
    void eachRunHasItsOwnEmptyTmpAndNothingSurvivesToTheNext() throws Exception {
        try (Launcher launcher = Launchers.open(log, spec(List.of(), List.of(dir), List.of()))) {
            LaunchResult first = sh(launcher, dir, "echo cached > /tmp/answer; echo cached > /dev/shm/answer; cat /tmp/answer");
            assertThat(out(first)).isEqualTo("cached\n");
            LaunchResult second = sh(launcher, dir, "cat /tmp/answer /dev/shm/answer 2>&1; ls -A /tmp /dev/shm; echo end");
            assertThat(out(second)).contains("No such file").doesNotContain("cached").doesNotContain("answer\n").endsWith("end\n");
        }
    }

    @Test
    void aRunThatSpoilsTmpOrLeavesProcessesDoesNotReachTheNext() throws Exception {
        try (Launcher launcher = Launchers.open(log, spec(List.of(), List.of(dir), List.of()))) {
            LaunchResult spoil = sh(launcher, dir, "chmod 0555 /tmp; mkdir -p /dev/shm/x; (sleep 300 &) ; ipcmk -M 4096 >/dev/null; echo done");
            assertThat(out(spoil)).isEqualTo("done\n");
            LaunchResult next = sh(launcher, dir, "stat -c %a /tmp; ls -A /dev/shm | wc -l; ipcs -m | grep -c 0x; "
                    + "for p in /proc/[0-9]*; do cat $p/comm; done | grep -c sleep; echo end");
            assertThat(out(next)).isEqualTo("1777\n0\n0\n0\nend\n");
        }
    }

    @Test
    void aChildSeesOnlyItsOwnProcessTreeNotTheLauncherOrTheJvm() throws Exception {
        try (Launcher launcher = Launchers.open(log, spec(List.of(), List.of(dir), List.of()))) {
            LaunchResult ps = sh(launcher, dir, "for p in /proc/[0-9]*; do echo ${p#/proc/}; done; echo ppid=$PPID");
            List<String> pids = out(ps).lines().filter(l -> !l.startsWith("ppid")).toList();
            assertThat(pids).as("the shell, nothing else: not even the run's PID 1").containsExactly("2");
            assertThat(out(ps)).doesNotContain(Long.toString(ProcessHandle.current().pid()) + "\n");
            LaunchResult cmdline = sh(launcher, dir, "tr '\\0' ' ' < /proc/1/cmdline; echo");
            assertThat(out(cmdline)).as("PID 1's command line, hidden").isEqualTo("\n");
            long jvm = ProcessHandle.current().pid();
            LaunchResult signal = sh(launcher, dir, "kill -STOP " + jvm + " 2>&1; kill -STOP 1 2>&1; kill -KILL 1 2>&1; echo alive");
            assertThat(out(signal)).endsWith("alive\n");
            assertThat(ProcessHandle.current().isAlive()).isTrue();
        }
    }

    @Test
    void theChildIsNotRootAndHasNoCapabilities() throws Exception {
        try (Launcher launcher = Launchers.open(log, spec(List.of(), List.of(dir), List.of()))) {
            LaunchResult id = sh(launcher, dir, "id -u; grep -E '^(CapEff|CapPrm|NoNewPrivs)' /proc/self/status");
            List<String> lines = out(id).lines().toList();
            assertThat(lines.get(0)).isNotEqualTo("0");
            assertThat(lines).contains("CapEff:\t0000000000000000", "CapPrm:\t0000000000000000", "NoNewPrivs:\t1");
        }
    }

    @Test
    void theNetworkIsLoopbackOnly() throws Exception {
        try (Launcher launcher = Launchers.open(log, spec(List.of(), List.of(dir), List.of()))) {
            LaunchResult net = sh(launcher, dir, "cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d ' '");
            assertThat(out(net).lines().toList()).containsExactly("lo");
        }
    }

    @Test
    void hiddenPathsStayHiddenInsideWhatIsShownAndWritablePathsTakeWrites() throws Exception {
        Path home = Files.createDirectories(dir.resolve("home"));
        Files.writeString(home.resolve("private"), "nope");
        Path lib = Files.createDirectories(home.resolve("lib"));
        Files.writeString(lib.resolve("libx.txt"), "library\n");
        Path out = Files.createDirectories(dir.resolve("out"));
        SandboxSpec spec = dev.patchgrade.core.SandboxAvailability.view(SandboxSpec.Mode.REQUIRED, List.of(dir), List.of(out),
                List.of(home.resolve("private")));
        try (Launcher launcher = Launchers.open(log, spec)) {
            LaunchResult run = sh(launcher, dir, "cat home/lib/libx.txt; cat home/private 2>&1; echo written > out/result; echo end");
            assertThat(out(run)).startsWith("library\n").contains("home/private").endsWith("end\n");
        }
        assertThat(Files.readString(out.resolve("result"))).isEqualTo("written\n");
    }

    @Test
    void aSymlinkedOracleDirectoryIsHiddenWhereItsFilesAre() throws Exception {
        Path real = Files.createDirectories(dir.resolve("elsewhere/gold"));
        Files.writeString(real.resolve("g.json"), "secret");
        Path link = Files.createSymbolicLink(dir.resolve("gold"), real);
        try (Launcher launcher = Launchers.open(log, spec(List.of(), List.of(dir), List.of(link)))) {
            LaunchResult run = sh(launcher, dir, "cat gold/g.json elsewhere/gold/g.json 2>&1; echo x > elsewhere/gold/g.json 2>&1; echo end");
            assertThat(out(run)).doesNotContain("secret").endsWith("end\n");
        }
        assertThat(Files.readString(real.resolve("g.json"))).isEqualTo("secret");
    }

    @Test
    void leftoversAreKilledCountedAndTheirCostIncluded() throws Exception {
        String work = "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done";
        // This JVM's own length of sleep: the survivors counted below are this test's, not another build's.
        String nap = "sleep 300." + ProcessHandle.current().pid();
        try (Launcher launcher = Launchers.open(log, spec(List.of(), List.of(dir), List.of()))) {
            LaunchResult alone = sh(launcher, dir, work);
            // A daemon in a new session that would outlive the run, and a child that does the same work and is
            // never waited for: the parent leaves once the work is done, whatever the machine's speed. The mark is a
            // redirection, not touch: a touch still exiting when the parent sees its file would be a third leftover.
            LaunchResult run = sh(launcher, dir, "setsid " + nap + " & (" + work + "; : > /tmp/worked; " + nap + ") & "
                    + "while [ ! -e /tmp/worked ]; do sleep 0.01; done; echo parent-done");
            assertThat(out(run)).isEqualTo("parent-done\n");
            assertThat(run.leftovers()).isEqualTo(2);
            assertThat(run.usage().userMicros()).as("the unwaited child's CPU counts").isGreaterThan(alone.usage().userMicros() / 2);
        }
        assertThat(ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("").equals(nap)).toList()).isEmpty();
    }

    @Test
    void requiredFailsWithTheReasonWhereTheKernelRefusesUserNamespaces() {
        HelperTestHooks.denyUserNamespaces(true);
        assertThatThrownBy(() -> Launchers.open(log, SandboxSpec.of(SandboxSpec.Mode.REQUIRED)))
                .isInstanceOf(PatchgradeException.class)
                .satisfies(e -> assertThat(((PatchgradeException) e).errorName()).isEqualTo("sandbox_unavailable"))
                .hasMessageContaining("user namespace").hasMessageContaining("seccomp=unconfined");
        assertThat(Scratch.sweepAbandoned(Scratch.base())).as("nothing left behind").isZero();
    }

    @Test
    void autoWarnsOnceAndRunsWithoutTheSandboxWhereTheKernelRefuses() throws Exception {
        HelperTestHooks.denyUserNamespaces(true);
        try (Launcher launcher = Launchers.open(log, SandboxSpec.of(SandboxSpec.Mode.AUTO))) {
            assertThat(launcher.sandbox().active()).isFalse();
            assertThat(launcher.sandbox().describe()).contains("not tamper-proof");
            LaunchResult run = sh(launcher, dir, "echo x > " + dir.resolve("written") + "; echo ok");
            assertThat(out(run)).isEqualTo("ok\n");
        }
        assertThat(warnings).hasSize(1).first().asString().contains("WITHOUT the sandbox");
        assertThat(dir.resolve("written")).as("no sandbox: the write went through").exists();
    }

    @Test
    void offRunsWithoutTheSandboxAndSaysSo() throws Exception {
        try (Launcher launcher = Launchers.open(log, SandboxSpec.of(SandboxSpec.Mode.OFF))) {
            assertThat(launcher.sandbox().mode()).isEqualTo("off");
            assertThat(launcher.sandbox().reason()).isEqualTo("sandbox=off was set");
        }
        assertThat(warnings).noneMatch(w -> w.contains("sandbox"));
    }

    @Test
    void theRequestEnvironmentIsAllTheChildGets() throws Exception {
        try (Launcher launcher = Launchers.open(log, spec(List.of(), List.of(dir), List.of()))) {
            LaunchResult env = launcher.launch(LaunchRequest.of(List.of("/usr/bin/env")).withWorkingDirectory(dir)
                    .withEnvironment(ChildEnvironment.pinned(Map.of("EXTRA", "1"))));
            assertThat(out(env).lines().map(l -> l.substring(0, l.indexOf('='))).sorted().toList())
                    .containsExactly("EXTRA", "LC_ALL", "PATH", "TZ");
            assertThat(new String(env.stdout().head(), StandardCharsets.UTF_8)).doesNotContain("HOME=");
        }
    }
}
