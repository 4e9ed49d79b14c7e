package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.patchgrade.core.Fixtures;
import dev.patchgrade.core.GradeLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a user without root gets: the helper and its children run as nobody (through setpriv, as
 * the CI machine runs as root). The sandbox still comes up, and without it the helper's own
 * descriptors are closed to a child of the same user (the helper is not dumpable).
 */
class NonRootTest {
    private static final Path SETPRIV = Path.of("/usr/bin/setpriv");

    @TempDir
    Path dir;

    @BeforeEach
    void runHelpersAsNobody() throws Exception {
        assumeTrue(Files.isExecutable(SETPRIV) && "root".equals(System.getProperty("user.name")),
                "needs root and setpriv to drop to nobody; as a non-root user every test runs non-root already");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path cache = Files.createDirectories(dir.resolve("cache"));
        System.setProperty("patchgrade.cacheDir", cache.toString());
        HelperTestHooks.startHelpersThrough(SETPRIV + " --reuid=65534 --regid=65534 --clear-groups");
    }

    @AfterEach
    void restore() {
        System.clearProperty("patchgrade.cacheDir");
        HelperTestHooks.startHelpersThrough("");
    }

    private Launcher open(SandboxSpec.Mode mode) {
        return Launchers.open(GradeLog.SILENT, dev.patchgrade.core.SandboxAvailability.view(mode, List.of(dir), List.of(), List.of()));
    }

    @Test
    void theSandboxComesUpForAnUnprivilegedUser() {
        dev.patchgrade.core.SandboxAvailability.assumeAvailable();
        try (Launcher launcher = open(SandboxSpec.Mode.REQUIRED)) {
            assertThat(launcher.sandbox().active()).isTrue();
            LaunchResult id = launcher.launch(LaunchRequest.of(List.of("/bin/sh", "-c", "id -u; cat /proc/self/uid_map")));
            assertThat(id.stdout().excerpt().lines().toList()).first().isEqualTo("65534");
            assertThat(id.stdout().excerpt()).contains("65534").doesNotContain(" 0 ");
        }
    }

    @Test
    void withoutTheSandboxAChildOfTheSameUserCannotForgeTheHelpersReply() {
        try (Launcher launcher = open(SandboxSpec.Mode.OFF)) {
            LaunchResult result = launcher.launch(LaunchRequest.of(List.of(Fixtures.command("forge_reply"))));
            assertThat(result.exitCode()).isEqualTo(7);
            assertThat(result.stdout().excerpt()).isEqualTo("opened 0\n");
        }
    }

    /**
     * Without the sandbox a child of the same user could open /proc/JVM/mem: a cheating child read the run's token
     * from the heap and wrote a forged answer with it into the helper's reply pipe through /proc/JVM/fd. The JVM is
     * not dumpable while such a launcher is open, and is again after it closes; a sandboxed launcher leaves it be.
     */
    /**
     * Without a cgroup (none for nobody here) a child the kernel reaps itself is told by the page faults it took, which
     * the zygote's inherited counter has and no wait4: 2 MB touched that way is no peak RSS at all, never the parent's 1 MB. (So
     * little takes the child too little CPU for the task clock's wide margin to tell it.)
     */
    @Test
    void theMemoryOfAnAutoReapedChildIsToldByItsFaults() {
        dev.patchgrade.core.SandboxAvailability.assumeAvailable();
        try (Launcher launcher = open(SandboxSpec.Mode.REQUIRED)) {
            assumeTrue(launcher.method().contains("task_clock"), "needs the zygote's counters: " + launcher.method());
            LaunchResult hidden = launcher.launch(LaunchRequest.of(List.of(Fixtures.command("attacker"), "sigchld-ign-touch", "2"))
                    .withWorkingDirectory(dir));
            assertThat(hidden.stdout().excerpt()).isEqualTo("answer\n");
            assertThat(hidden.usage().maxRssKb()).as(hidden.usage().toString()).isNull();
            LaunchResult waited = launcher.launch(LaunchRequest.of(List.of(Fixtures.command("touch_mb"), "8")).withWorkingDirectory(dir));
            assertThat(waited.usage().maxRssKb()).isGreaterThan(8_000L);
        }
    }

    @Test
    void withoutTheSandboxTheJvmIsNotDumpableWhileALauncherIsOpen() {
        Boolean before = PosixCalls.dumpable();
        assumeTrue(Boolean.TRUE.equals(before), "the JVM is dumpable to begin with: " + before);
        try (Launcher launcher = open(SandboxSpec.Mode.OFF)) {
            assertThat(PosixCalls.dumpable()).as("while a launcher runs children outside the sandbox").isFalse();
            assertThat(launcher.launch(LaunchRequest.of(List.of("/bin/true"))).exitCode()).isZero();
        }
        assertThat(PosixCalls.dumpable()).as("after it closed").isTrue();
        dev.patchgrade.core.SandboxAvailability.assumeAvailable();
        try (Launcher launcher = open(SandboxSpec.Mode.REQUIRED)) {
            assertThat(PosixCalls.dumpable()).as("beside a sandboxed launcher").isTrue();
        }
    }

    /**
     * Descriptors in flight count against the sender's uid, up to the sender's RLIMIT_NOFILE, and when Maven is
     * not root every run has the helper's uid: a run holding its limit's worth in flight made the other worker's
     * hand-over of each run's stdio fail (launcher_failed) for as long as it held them. Runs now get a hard limit
     * below the helper's.
     */
    @Test
    void aRunHoldingDescriptorsInFlightDoesNotStopAnotherWorkerOfTheSameUser() throws Exception {
        dev.patchgrade.core.SandboxAvailability.assumeAvailable();
        Path shared = Files.createDirectories(dir.resolve("w"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        SandboxSpec spec = dev.patchgrade.core.SandboxAvailability.view(SandboxSpec.Mode.REQUIRED, List.of(dir), List.of(shared), List.of());
        try (Launcher flooder = Launchers.open(GradeLog.SILENT, spec, 1); Launcher other = Launchers.open(GradeLog.SILENT, spec, 1)) {
            long hard = hardDescriptorLimit();
            LaunchResult limits = SandboxedRuns.sh(other, dir, "ulimit -Hn; ulimit -Sn");
            List<String> runLimits = limits.stdout().excerpt().lines().toList();
            assertThat(Long.parseLong(runLimits.get(0))).as("a run's hard limit").isEqualTo(hard - Math.min(hard / 2, 65536));
            assertThat(Long.parseLong(runLimits.get(1))).as("a run's soft limit").isLessThanOrEqualTo(Long.parseLong(runLimits.get(0)));
            String flooded = SandboxedRuns.whileFlooding(flooder, dir, shared, () -> SandboxedRuns.assertRunsGoOn(other, dir));
            assertThat(flooded).as("the flood stopped at the run's own limit").contains("stop=ETOOMANYREFS");
            assertThat(SandboxedRuns.sh(flooder, dir, "echo after").stdout().excerpt()).isEqualTo("after\n");
        }
    }

    private static long hardDescriptorLimit() throws java.io.IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
            if (line.startsWith("Max open files")) {
                return Long.parseLong(line.substring("Max open files".length()).trim().split("\\s+")[1]);
            }
        }
        throw new AssertionError("no descriptor limit in /proc/self/limits");
    }
}
