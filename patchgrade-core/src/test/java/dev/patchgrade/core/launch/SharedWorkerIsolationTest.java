package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.Fixtures;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.SandboxAvailability;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Sandbox on: what the runs of one worker share beyond their namespaces. Unix sockets a run left
 * in a garbage cycle (with memory in flight in them), the worker's PID 1 (its /proc files: what it reaped, and some
 * writable by the target's uid when Maven runs as root), and the scheduler's autogroup of the session.
 */
class SharedWorkerIsolationTest extends SandboxedRunTest {
    /**
     * A socketpair whose ends were sent over each other is reachable from no process once the run is gone, and the
     * kernel (6.10 and later) collects it only when over 16,000 descriptors are in flight: 64 MB of memfds in flight
     * in it stayed charged to the worker's cgroup into the next run's baseline, and that run made the kernel collect
     * them and touched as much without its peak moving (96 MB hidden in the cheating candidate's run).
     */
    @Test
    void memoryParkedInAUnixSocketCycleDoesNotHideTheNextRunsPeak() throws Exception {
        String candidate = Fixtures.command("attacker");
        try (Launcher launcher = open()) {
            Long clean = run(launcher, candidate, "unix-kick-touch", "64").usage().treeRssKb();
            Assumptions.assumeTrue(clean != null, "no memory cgroup here");
            long before = MemInfo.shmemKb();
            LaunchResult park = run(launcher, candidate, "unix-park", "64");
            long atAnswer = MemInfo.shmemKb() - before;
            assertThat(park.stdout().excerpt()).isEqualTo("parked\n");
            LaunchResult next = run(launcher, candidate, "unix-kick-touch", "64");
            assertThat(next.stdout().excerpt()).isEqualTo("touched\n");
            System.out.println("RED-UNIX tree_rss_kb of a 64 MB run: clean " + clean + ", after a run that parked 64 MB in a unix socket cycle "
                    + next.usage().treeRssKb() + "; shmem still held when the parking run was answered: " + atAnswer + " KiB");
            assertThat(atAnswer).as("the parked memfds are freed before the answer").isLessThan(32_000L);
            assertThat(next.usage().treeRssKb()).as("the next run's tree RSS, not hidden by what the run before parked").isGreaterThan(clean / 2);
        }
    }

    /**
     * Descriptors in flight count against their uid's RLIMIT_NOFILE, and every process of the sandbox has the
     * target's uid: one run holding 20,000 in flight on a socketpair made every worker's hand-over of a network
     * namespace fail (as a descriptor), and every sandboxed launch of the host with it. Another worker's runs go on.
     */
    @Test
    void aRunHoldingDescriptorsInFlightDoesNotStopOtherWorkers() throws Exception {
        Path shared = Files.createDirectories(dir.resolve("w"));
        SandboxSpec spec = dev.patchgrade.core.SandboxAvailability.view(SandboxSpec.Mode.REQUIRED, List.of(dir), List.of(shared), List.of());
        SandboxAvailability.assumeAvailable();
        try (Launcher flooder = Launchers.open(GradeLog.SILENT, spec, 1); Launcher other = Launchers.open(GradeLog.SILENT, spec, 1)) {
            assertThat(SandboxedRuns.sh(other, dir, "echo warm").exitCode()).isZero();
            String flooded = SandboxedRuns.whileFlooding(flooder, dir, shared, () -> SandboxedRuns.assertRunsGoOn(other, dir));
            System.out.println("RED-FLOOD " + flooded.strip());
            Assumptions.assumeTrue(flooded.contains("stop=ETOOMANYREFS"), "the uid's descriptor limit is past what one socket holds: " + flooded);
            assertThat(SandboxedRuns.sh(flooder, dir, "echo after").stdout().excerpt()).isEqualTo("after\n");
        }
    }

    /**
     * In three-column grading the reference runs through a launcher of its own beside the candidate's; with the
     * scratch outside /tmp and /dev/shm (Jenkins' workspace@tmp or $WORKSPACE/tmp as java.io.tmpdir,
     * -Dpatchgrade.scratch) a cheating candidate read the reference's stdout from that launcher's scratch while it
     * ran, also with the base inside the project, which the runs are shown. Every scratch of the base is hidden now.
     */
    @Test
    void aRunCannotReadAnotherLaunchersScratch() throws Exception {
        SandboxAvailability.assumeAvailable();
        // Not under /tmp: each run's /tmp is new, so a scratch there is out of sight whatever is hidden.
        Path varTmp = Path.of("/var/tmp");
        Assumptions.assumeTrue(Files.isDirectory(varTmp) && Files.isWritable(varTmp), "needs a writable /var/tmp");
        Path outside = Files.createTempDirectory(varTmp, "patchgrade-test-scratch-");
        try {
            for (Path base : List.of(outside, Files.createDirectories(dir.resolve("target/scratch")))) {
                System.setProperty(Scratch.BASE_PROPERTY, base.toString());
                try (Launcher reference = SandboxedRuns.open(dir); Launcher candidate = SandboxedRuns.open(dir)) {
                    assertThat(SandboxedRuns.sh(reference, dir, "echo REFERENCE-ANSWER").stdout().excerpt()).isEqualTo("REFERENCE-ANSWER\n");
                    try (var scratches = Files.list(base)) {
                        assertThat(scratches.filter(p -> p.getFileName().toString().startsWith(Scratch.PREFIX)).count())
                                .as("two launchers' scratch").isEqualTo(2);
                    }
                    LaunchResult looked = SandboxedRuns.sh(candidate, dir, "ls -A " + base + " | wc -l; cat " + base + "/*/* 2>/dev/null | wc -c");
                    assertThat(looked.stdout().excerpt()).as("the candidate looking into " + base).isEqualTo("0\n0\n");
                }
            }
        } finally {
            System.clearProperty(Scratch.BASE_PROPERTY);
            Files.deleteIfExists(outside);
        }
    }

    /** A lease on a host file stalls whoever opens it on the host (a write lease on /etc/ld.so.cache: every exec). */
    @Test
    void aRunCannotTakeALeaseOnAHostFile() throws Exception {
        Path file = Files.writeString(dir.resolve("leased"), "x");
        assertThat(Fixtures.outputOutsideTheSandbox("attacker", dir, "lease", file.toString())).as("without the sandbox").isEqualTo("lease ok\n");
        try (Launcher launcher = open()) {
            assertThat(run(launcher, Fixtures.command("attacker"), "lease", file.toString()).stdout().excerpt()).isEqualTo("lease refused errno=1\n");
        }
    }

    /**
     * The host's cgroup tree under the read-only /sys: the worker's memory.stat and cpuacct counters run on from one
     * run to the next (a cheating run set its page-fault count so the next read a byte back), and every other
     * worker's and Maven's are there too. An empty directory now.
     */
    @Test
    void aRunSeesNoCgroupCounters() {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/sys/fs/cgroup")), "no cgroups on this host");
        try (Launcher launcher = open()) {
            String seen = sh(launcher, "ls -A /sys/fs/cgroup; cat /sys/fs/cgroup/memory/memory.stat 2>/dev/null | head -1; echo end").stdout().excerpt();
            assertThat(seen).isEqualTo("end\n");
        }
    }

    /** The worker's PID 1 is no process of the run's: hidden from it, with every file under /proc/1. */
    @Test
    void aRunCannotSeeTheWorkersPid1() {
        try (Launcher launcher = open()) {
            String seen = sh(launcher, "cat /proc/1/stat >/dev/null 2>&1 && echo pid1-readable; ls /proc | grep -x 1; "
                    + "test -d /proc/$$ && echo own-visible").stdout().excerpt();
            assertThat(seen).isEqualTo("own-visible\n");
        }
    }

    /**
     * PID 1 has the target's uid, so the kernel let a run set its limits (64 bits a run in a soft limit, kept for the
     * next run to read; RLIMIT_NOFILE 4 and no run could start again, when PID 1 started them), nice value, CPUs, scheduling policy and I/O
     * priority. Each is refused for pid 1, a run's own processes keep them all, and the next run starts as the first.
     */
    @Test
    void aRunCannotChangeWhatPid1AndSoEveryLaterRunInherits() {
        try (Launcher launcher = open()) {
            String limits = "prlimit --pid $$ --nofile --msgqueue --noheadings --output SOFT,HARD | tr -s ' ' | tr '\\n' ';'; nice; "
                    + "taskset -p $$ | cut -d: -f2; chrt -p $$ | head -1 | cut -d: -f2";
            String fresh = sh(launcher, limits).stdout().excerpt();
            String attempts = sh(launcher, "for cmd in 'prlimit --pid 1 --nofile=4:4' 'prlimit --pid 1 --msgqueue=123456:' 'renice -n 19 -p 1' "
                    + "'renice -n 19 -u $(id -u)' 'taskset -p 1 1' 'chrt -i -p 0 1' 'ionice -c 3 -p 1' 'ionice -c 3 -u $(id -u)'; do "
                    + "sh -c \"$cmd\" >/dev/null 2>&1 && echo \"changed: $cmd\"; done; "
                    + "ulimit -n 100 && test $(sh -c 'ulimit -n') = 100 && lower=$(( $(nice) < 19 ? $(nice) + 1 : 19 )) && "
                    // One step lower than it starts: a build that is itself niced (nice 19 on a shared agent) can only go lower.
                    + "renice -n $lower -p $$ >/dev/null && test $(nice) = $lower && echo own-changed")
                    .stdout().excerpt();
            assertThat(attempts).as("what the run changed").isEqualTo("own-changed\n");
            LaunchResult next = sh(launcher, limits);
            assertThat(next.exitCode()).isZero();
            assertThat(next.stdout().excerpt()).as("the next run's limits, nice value, CPUs and policy").isEqualTo(fresh);
        }
    }

    /**
     * PID 1's coredump_filter belongs to the target's uid when Maven runs as root (a process that is not dumpable has
     * root's files, and root is that uid outside): one run wrote 9 bits there and the next read them back, also from
     * its own inherited copy.
     */
    @Test
    void aRunCannotLeaveBitsInPid1sCoredumpFilter() {
        try (Launcher launcher = open()) {
            String fresh = sh(launcher, "cat /proc/self/coredump_filter").stdout().excerpt();
            sh(launcher, "echo 0x1a5 > /proc/1/coredump_filter");
            String next = sh(launcher, "cat /proc/self/coredump_filter; cat /proc/1/coredump_filter 2>/dev/null").stdout().excerpt();
            assertThat(next).as("the next run's own filter, and PID 1's if it could read it").isEqualTo(fresh).doesNotContain("1a5");
        }
    }

    /**
     * The scheduler's autogroup is the session's: with the worker in the JVM's session, a run that wrote 19 to
     * /proc/self/autogroup (or PID 1's) lowered the priority of the JVM, Maven and every worker, and the setting
     * outlived the build; with the runs of a worker in one session, one run's nice value (0-19) was the next run's.
     */
    @Test
    void aRunsAutogroupIsNotTheJvms() throws Exception {
        Path own = Path.of("/proc/self/autogroup");
        Assumptions.assumeTrue(Files.isReadable(own), "a kernel without scheduler autogroups");
        String jvm = Files.readString(own).split(" ")[0];
        try (Launcher launcher = open()) {
            String first = sh(launcher, "cat /proc/self/autogroup; echo 7 > /proc/self/autogroup").stdout().excerpt();
            String next = sh(launcher, "cat /proc/self/autogroup").stdout().excerpt();
            assertThat(first.split(" ")[0]).startsWith("/autogroup-").isNotEqualTo(jvm);
            assertThat(next).as("the next run's autogroup: its own, at nice 0").endsWith(" nice 0\n").isNotEqualTo(first);
        }
    }
}
