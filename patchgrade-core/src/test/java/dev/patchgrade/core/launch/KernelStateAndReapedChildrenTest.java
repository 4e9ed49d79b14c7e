package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.Fixtures;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.envelope.Envelope;
import dev.patchgrade.core.envelope.EnvelopeFile;
import dev.patchgrade.core.envelope.EnvelopeGrader;
import dev.patchgrade.core.envelope.EnvelopeRecording;
import dev.patchgrade.core.envelope.EnvelopeRun;
import dev.patchgrade.core.envelope.EnvelopeVerdict;
import dev.patchgrade.core.envelope.Slack;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.SandboxSettings;
import dev.patchgrade.core.host.HostInfo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Attacks a cheating candidate makes on the sandbox, each asserting the secure behaviour. A run must
 * not leave anything the next run of the same worker can read (the zygote's user, mount and network
 * namespaces are reused), must not write to the host kernel, and must not hide its cost.
 */
class KernelStateAndReapedChildrenTest extends SandboxedRunTest {
    private final GradeLog log = GradeLog.SILENT;

    @org.junit.jupiter.api.BeforeEach
    void needsTheSandbox() {
        dev.patchgrade.core.SandboxAvailability.assumeAvailable();
    }

    /** The user keyring lives in the zygote's user namespace, which every run of the worker shares. */
    @Test
    void aRunCannotCacheAnAnswerInTheUserKeyringForTheNextRun() throws Exception {
        String candidate = Fixtures.command("attacker");
        try (Launcher launcher = open()) {
            assertThat(run(launcher, candidate, "keyring-load").stdout().excerpt()).isEqualTo("none\n");
            run(launcher, candidate, "keyring-store", "the-golden-answer");
            assertThat(run(launcher, candidate, "keyring-load").stdout().excerpt()).as("the second run reads what the first cached")
                    .doesNotContain("the-golden-answer");
        }
    }

    /**
     * The child's uid 1000 is mapped to the caller; with Maven running as root that is the host's
     * uid 0, and a fresh /proc lets uid 0 write every 0644 sysctl: kernel.core_pattern (a root shell on
     * the host at the next crash), kernel.modprobe, vm.*... Written here with its own value.
     */
    @Test
    void aRunCannotWriteHostKernelSettingsThroughProcSys() throws Exception {
        try (Launcher launcher = open()) {
            LaunchResult write = sh(launcher, "v=$(cat /proc/sys/vm/swappiness); echo $v > /proc/sys/vm/swappiness && echo swappiness-written; "
                    + "cat /proc/sys/kernel/core_pattern > /tmp/cp && cat /tmp/cp > /proc/sys/kernel/core_pattern && echo core_pattern-written; echo end");
            assertThat(write.stdout().excerpt()).isEqualTo("end\n");
        }
    }

    /**
     * /dev is the host's: a run writes its answer on a virtual console and the next run (or the next
     * build) reads the screen back through /dev/vcsN; /dev/kmsg takes writes into the host's kernel log.
     */
    @Test
    void aRunCannotCacheAnAnswerOnAHostConsoleOrWriteTheKernelLog() throws Exception {
        try (Launcher launcher = open()) {
            LaunchResult store = sh(launcher, "printf '\\033[2J\\033[Hpg-cached-answer-4242' > /dev/tty63 2>/dev/null && echo stored-on-tty; "
                    + "(exec 3>/dev/kmsg) 2>/dev/null && echo kmsg-writable; echo end");
            LaunchResult load = sh(launcher, "cat /dev/vcs63 2>/dev/null | tr -s ' ' | head -c 64; printf '\\033[2J' > /dev/tty63 2>/dev/null; echo; echo end");
            assertThat(store.stdout().excerpt()).isEqualTo("end\n");
            assertThat(load.stdout().excerpt()).doesNotContain("pg-cached-answer-4242");
        }
    }

    /**
     * With SIGCHLD ignored the kernel reaps a child itself and its rusage reaches no wait4: CPU spent
     * there is missing from the figures (envelope's max_user_us), and so is its ru_maxrss.
     */
    @Test
    void cpuSpentInAnAutoReapedChildIsCounted() throws Exception {
        GoalSettings settings = new GoalSettings("envelope", "attacker", dir.resolve("reports"), dir.resolve("target/patchgrade"), dir, Map.of())
                .withSandbox(new SandboxSettings(SandboxSpec.Mode.REQUIRED, List.of(), null, List.of(), List.of(), List.of()));
        try (Launcher launcher = settings.openLauncher(log, List.of(), dev.patchgrade.core.grade.RunInputs.of(List.of(dev.patchgrade.core.Fixtures.command("attacker"))))) {
            Assumptions.assumeTrue(launcher.cpuLimitation() == null, "needs a writable CPU cgroup (root here): " + launcher.method());
            for (String mode : List.of("sigchld-ign", "sigchld-ign-xonly")) {
                LaunchResult result = runLong(launcher, Fixtures.command("attacker"), mode, "400");
                assertThat(result.stdout().excerpt()).isEqualTo("answer\n");
                long cpu = result.usage().userMicros() + result.usage().systemMicros();
                assertThat(cpu).as("CPU of the auto-reaped child (" + mode + "), in microseconds").isGreaterThanOrEqualTo(300_000L);
                if (launcher.method().contains("cgroup_")) {
                    // The memory cgroup's faults tell where an escaped process's memory went: CPU alone loses no figure.
                    assertThat(result.usage().maxRssKb()).as(result.usage().toString()).isNotNull();
                }
            }
            assertThat(settings.facts().sandboxJson()).containsEntry("cpu_complete", true).doesNotContainKey("cpu_limitation");
        }
    }

    /**
     * A child the kernel reaps itself (its parent ignores SIGCHLD) takes its peak RSS, faults and I/O out of every
     * wait4: 200 MB touched that way read as about 1 MB. Its CPU still reaches the zygote's task clock, which tells such a
     * run apart: its per-process figures are unknown (null), never small.
     */
    @Test
    void theMemoryOfAnAutoReapedChildIsNeverReportedAsSmall() {
        try (Launcher launcher = open()) {
            Assumptions.assumeTrue(launcher.method().contains("task_clock"), "needs the zygote's task clock: " + launcher.method());
            LaunchResult tree = shLong(launcher, Fixtures.command("touch_mb") + " 20 & " + Fixtures.command("touch_mb") + " 30; wait");
            assertThat(tree.usage().processEscapedWait()).as("every process of an honest tree is waited for: " + tree.usage()).isFalse();
            assertThat(tree.usage().maxRssKb()).isGreaterThan(30_000L);
            // The allowance is per task the run made, told by the pid counter: a clone that fails after taking its pid
            // moved it without a task (a candidate burnt 120,000 pids to hide a 200 MB child); such clones are refused.
            LaunchResult burnt = run(launcher, Fixtures.command("attacker"), "burn-pids", "2000");
            assertThat(burnt.stdout().excerpt()).as("clone3 refused as Docker refuses it, CLONE_PIDFD refused")
                    .startsWith("clone3 errno=38 clone errno=1 next pid ");
            assertThat(Integer.parseInt(burnt.stdout().excerpt().strip().replaceAll(".* ", ""))).as("the pid counter after 4,000 clones")
                    .isLessThan(10);
            // Each thread spends a few microseconds after its time joined its process's: 2,400 of them are no escape.
            LaunchResult threads = runLong(launcher, Fixtures.command("attacker"), "threads", "300");
            assertThat(threads.stdout().excerpt()).isEqualTo("threads done\n");
            assertThat(threads.usage().processEscapedWait()).as("short threads: " + threads.usage()).isFalse();
            LaunchResult hidden = runLong(launcher, Fixtures.command("attacker"), "sigchld-ign-touch", "200");
            assertThat(hidden.stdout().excerpt()).isEqualTo("answer\n");
            assertThat(hidden.usage().processEscapedWait()).as(hidden.usage().toString()).isTrue();
            assertThat(hidden.usage().maxRssKb()).as("not the parent's own 1 MB").isNull();
            assertThat(hidden.usage().minorFaults()).isNull();
            assertThat(Usage.escapedWaitReason(hidden.usage().unwaitedCpuMicros(), "peak RSS")).contains("SIGCHLD");
            // A child that execs a file it cannot read leaves the zygote's counters; a CPU cgroup still has its CPU (
            // 200 MB read as 1.6 MB here before the cgroup was asked too).
            if (launcher.cpuLimitation() == null) {
                LaunchResult unreadable = runLong(launcher, Fixtures.command("attacker"), "sigchld-ign-xonly-touch", "200");
                assertThat(unreadable.stdout().excerpt()).isEqualTo("answer\n");
                assertThat(unreadable.usage().maxRssKb()).as(unreadable.usage().toString()).isNull();
            }
        }
    }

    /**
     * 6,000 short threads bought the CPU check an allowance of 60 ms (10 us a task), and a child the
     * kernel reaped filled 100 MB with MADV_POPULATE_WRITE, which takes no user-mode fault and 15 to 35 ms of CPU:
     * the run read as 1.5 MB in 9 runs of 10. The memory cgroup counts the kernel's faults as well, and huge pages
     * (2 MB a fault) are off in runs, so the memory shows as faults no wait4 explains, whatever the allowance.
     * Here 12,000 threads and 64 MB: without the fault check the run read as 1.6 MB (checked).
     */
    @Test
    void memoryPopulatedInAReapedChildBehindThreadsIsNeverReportedAsSmall() {
        try (Launcher launcher = open()) {
            Assumptions.assumeTrue(launcher.method().contains("cgroup_"), "needs a memory cgroup: " + launcher.method());
            for (String huge : List.of("0", "1")) {
                LaunchResult hidden = runLong(launcher, Fixtures.command("attacker"), "sigchld-ign-populate", "64", "1500", huge);
                assertThat(hidden.stdout().excerpt()).isEqualTo("answer\n");
                assertThat(hidden.usage().processEscapedWait()).as("huge pages asked: " + huge + ", " + hidden.usage()).isTrue();
                assertThat(hidden.usage().maxRssKb()).as("not the parent's own 1 MB").isNull();
                // The peak is measured from a baseline taken once usage is within 8 MB of the last one (the settle
                // slack in pg-cgroup.c): what the previous run left for the kernel to free, and frees during this one,
                // comes off the peak. 64 MiB less that slack is the least the cgroup can show for the 64 MB.
                assertThat(hidden.usage().treeRssKb()).as("the cgroup holds the 64 MB").isGreaterThan((64L - 8L) * 1024L);
            }
            // The same threads with the child's memory waited for: no escape, and the child's 100 MB is the peak.
            LaunchResult honest = shLong(launcher, Fixtures.command("attacker") + " threads 750 && " + Fixtures.command("touch_mb") + " 100");
            assertThat(honest.usage().processEscapedWait()).as(honest.usage().toString()).isFalse();
            assertThat(honest.usage().maxRssKb()).isGreaterThan(100_000L);
        }
    }

    /**
     * A candidate filled 20 to 50 MB of a child the kernel reaped through a userfaultfd (UFFDIO_CONTINUE and
     * UFFDIO_COPY install pages without a fault), and it read as 1.9 MB with no escape told, 20 runs of 20. Memory
     * another process writes (process_vm_writev, PTRACE_POKEDATA) has its faults explained by the writer's rusage
     * (200 MB read as 1.7 MB). All three are refused; tracing itself still works.
     */
    @Test
    void aRunCannotFillMemoryWithoutItsOwnFaults() {
        try (Launcher launcher = open()) {
            LaunchResult fill = run(launcher, Fixtures.command("attacker"), "fill-other");
            assertThat(fill.stdout().excerpt()).isEqualTo("userfaultfd errno=38 process_vm_writev errno=38 poke errno=1 peek ok\n");
        }
    }

    /**
     * Failed faults (a read past the end of a mapped file, its SIGBUS caught) count in the perf counter and not in
     * rusage: an honest program that caught 100 was taken for an escape. Where the memory cgroup's
     * faults are told, they alone tell an escape, and they allow for more.
     */
    @Test
    void anHonestProgramCatchingSigbusIsNoEscape() {
        try (Launcher launcher = open()) {
            Assumptions.assumeTrue(launcher.method().contains("cgroup_"), "needs a memory cgroup: " + launcher.method());
            LaunchResult caught = run(launcher, Fixtures.command("attacker"), "sigbus", "100");
            assertThat(caught.stdout().excerpt()).isEqualTo("caught 100\n");
            assertThat(caught.usage().processEscapedWait()).as(caught.usage().toString()).isFalse();
            assertThat(caught.usage().maxRssKb()).isNotNull();
        }
    }

    /**
     * A parent reads one byte of each page of its sleeping child's shared memory through /proc/PID/mem.
     * Each read is a fault of the parent's, explained by its rusage, and the page lands in the child's resident set;
     * the child is reaped by the kernel, so 100 MB read as 1.4 MB with no escape told. The verdict does not rest on
     * that figure: record-envelope bounds the tree's memory, which the memory cgroup measures whoever holds the pages.
     */
    @Test
    void memoryHiddenFromMaxRssIsRejectedByTheRecordedTreeCeiling() {
        try (Launcher launcher = open()) {
            Assumptions.assumeTrue(launcher.method().contains("cgroup_"), "needs a memory cgroup: " + launcher.method());
            String candidate = Fixtures.command("attacker");
            List<EnvelopeRun> baseline = List.of(EnvelopeRun.of(run(launcher, candidate, "touch", "2")),
                    EnvelopeRun.of(run(launcher, candidate, "touch", "2")));
            EnvelopeRecording recording = EnvelopeRecording.of(List.of(candidate, "touch", "2"), 5, baseline, Slack.DEFAULT,
                    HostInfo.detect(null), null);
            Envelope envelope = EnvelopeFile.parse(dir.resolve("envelope.json"),
                    EnvelopeFile.recorded(recording).toString().getBytes(StandardCharsets.UTF_8));
            LaunchResult hidden = runLong(launcher, candidate, "sigchld-ign-procmem", "100");
            assertThat(hidden.stdout().excerpt()).isEqualTo("answer read 25600\n");
            assertThat(hidden.usage().treeRssKb()).as(hidden.usage().toString()).isGreaterThan(100_000L);
            EnvelopeVerdict verdict = EnvelopeGrader.grade(envelope, List.of(EnvelopeRun.of(hidden)), null, List.of());
            assertThat(verdict.accepted()).isFalse();
            assertThat(verdict.reasons()).as("max_rss_kb " + hidden.usage().maxRssKb()).contains("tree_rss");
        }
    }

    /**
     * A candidate held 1,000 MB in loopback UDP or netlink queues, read back whole, with a tree peak of 2 MB: socket
     * queues are in no resident set, and a v1 memory cgroup charges none but TCP's (once asked to). A run gets TCP
     * streams and no other socket.
     */
    @Test
    void aRunGetsTcpStreamsAndNoOtherSocket() {
        try (Launcher launcher = open()) {
            assertThat(run(launcher, Fixtures.command("attacker"), "socket-families").stdout().excerpt()).isEqualTo("""
                    tcp ok
                    tcp6 ok
                    udp refused errno=13
                    udp6 refused errno=13
                    icmp refused errno=13
                    netlink-route refused errno=97
                    netlink-usersock refused errno=97
                    packet refused errno=97
                    vsock refused errno=97
                    """);
        }
    }

    /** 300 MB held in loopback TCP queues read as a 2 MB tree peak. TCP buffers are charged to the worker's cgroup. */
    @Test
    void memoryHeldInTcpQueuesCountsInTheTreePeak() {
        try (Launcher launcher = open()) {
            Assumptions.assumeTrue(launcher.method().contains("cgroup_v1"), "TCP accounting of a v1 memory cgroup: " + launcher.method());
            LaunchResult held = runLong(launcher, Fixtures.command("attacker"), "tcp-hold", "200");
            assertThat(held.stdout().excerpt()).isEqualTo("held 200 MB\n");
            assertThat(held.usage().treeRssKb()).as(held.usage().toString()).isGreaterThan(180_000L);
        }
    }

    /**
     * A candidate parked 1,000 MB in connections to its own listeners that it never accepted, with a tree peak of
     * 40 MB: a memory cgroup charges a TCP socket once it is accepted. The zygote samples the run's sockets, accepted or not.
     */
    @Test
    void memoryParkedInConnectionsNeverAcceptedCountsInTheTreePeak() {
        try (Launcher launcher = open()) {
            Assumptions.assumeTrue(launcher.method().contains("cgroup_"), "needs a memory cgroup: " + launcher.method());
            LaunchResult parked = runLong(launcher, Fixtures.command("attacker"), "tcp-park", "200", "hold");
            assertThat(parked.stdout().excerpt()).isEqualTo("parked 200 MB\n");
            assertThat(parked.usage().treeRssKb()).as(parked.usage().toString()).isGreaterThan(180_000L);
        }
    }

    /** A transparent huge page comes in one fault for 2 MB: runs have none, and cannot turn them back on. */
    @Test
    void aRunHasNoTransparentHugePages() {
        try (Launcher launcher = open()) {
            LaunchResult thp = run(launcher, Fixtures.command("attacker"), "thp");
            assertThat(thp.stdout().excerpt()).isEqualTo("thp disabled=1 after-enable=1 anon-huge-kb=0\n");
        }
    }

    /**
     * Writing 5 to /proc/self/clear_refs resets a process's peak RSS, the figure wait4 reports: a run touched
     * 256 MB, reset it and passed a 20 MB ceiling. The runs' /proc is read-only; stdout reopened through it is not.
     */
    @Test
    void aRunCannotResetItsOwnPeakRss() throws Exception {
        try (Launcher launcher = open()) {
            LaunchResult forgot = runLong(launcher, Fixtures.command("attacker"), "touch-forget", "100");
            assertThat(forgot.stdout().excerpt()).startsWith("reset refused errno=30"); // EROFS
            assertThat(forgot.usage().maxRssKb()).as("the peak of 100 MB touched").isGreaterThan(90_000L);
            LaunchResult reopened = sh(launcher, "echo one >> /proc/self/fd/1; echo two >> /dev/stdout; echo three >> /dev/stderr");
            assertThat(reopened.stdout().excerpt()).isEqualTo("one\ntwo\n");
            assertThat(reopened.stderr().excerpt()).isEqualTo("three\n");
        }
        assertThat(Fixtures.outputOutsideTheSandbox("attacker", dir, "touch-forget", "1")).as("without the sandbox").isEqualTo("reset ok\n");
    }

    /**
     * The target's uid is host root's when Maven is root, so /proc's root-only files were readable: /proc/kpagecgroup
     * and /proc/kpageflags count exactly which pages a worker's memory cgroup has cached, which one run set and the
     * next read back (1,234 pages marked, 1,234 read). Masked, with the kernel's debug and tracing file systems.
     */
    @Test
    void aRunSeesNoRootOnlyKernelState() {
        try (Launcher launcher = open()) {
            LaunchResult read = sh(launcher, "for f in /proc/kpagecgroup /proc/kpageflags /proc/timer_list /proc/slabinfo /proc/key-users /proc/vmstat "
                    + "/sys/kernel/mm/transparent_hugepage/hugepages-2048kB/stats/anon_fault_alloc /sys/devices/system/node/node0/vmstat "
                    + "/sys/kernel/mm/transparent_hugepage/khugepaged/pages_collapsed; do "
                    + "[ -e $f ] && echo \"$f $(head -c 64 $f | wc -c)\"; done; for d in /sys/kernel/debug /sys/kernel/tracing /sys/kernel/slab; do ls -A $d 2>/dev/null | wc -l; done");
            assertThat(read.stdout().excerpt().lines().toList()).as(read.stdout().excerpt())
                    .allMatch(line -> line.endsWith(" 0") || line.equals("0"));
        }
    }

    /**
     * The network namespace is the zygote's, shared by every run: a run leaves 16 bits (as many as it
     * likes) in TIME_WAIT sockets, each a loopback port the next run finds it cannot bind.
     */
    @Test
    void aRunCannotCacheAnAnswerInTimeWaitSocketsOfTheSharedNetwork() throws Exception {
        String candidate = Fixtures.command("attacker");
        try (Launcher launcher = open()) {
            assertThat(run(launcher, candidate, "tw-load").stdout().excerpt()).isEqualTo("loaded:0\n");
            assertThat(run(launcher, candidate, "tw-store", "4242").stdout().excerpt()).isEqualTo("stored\n");
            assertThat(run(launcher, candidate, "tw-load").stdout().excerpt()).as("the second run reads what the first left").isEqualTo("loaded:0\n");
        }
    }

    /**
     * Loopback's byte counts belong to a network namespace: when a worker's runs shared one, a run left
     * 777,777 in them for the next to read (a cheating run passed its answer on that way). Each run now
     * has a namespace of its own, made before it.
     */
    @Test
    void aRunCannotCacheAnAnswerInTheByteCountsOfTheNetwork() {
        String candidate = Fixtures.command("attacker");
        try (Launcher launcher = open()) {
            assertThat(run(launcher, candidate, "lo-load").stdout().excerpt()).isEqualTo("lo:0\n");
            String stored = run(launcher, candidate, "lo-store", "777777").stdout().excerpt();
            assertThat(stored).startsWith("stored:");
            assertThat(Long.parseLong(stored.strip().substring("stored:".length()))).as("what the storing run reads back itself")
                    .isGreaterThanOrEqualTo(777_777L);
            assertThat(run(launcher, candidate, "lo-load").stdout().excerpt()).as("what the next run reads").isEqualTo("lo:0\n");
        }
    }

    /**
     * The runs of a worker share a PID namespace, whose pids count up: forking N times left N for the
     * next run to read in its own pid (a cheating run passed its answer on that way).
     */
    @Test
    void aRunsPidSaysNothingOfTheRunsBefore() {
        try (Launcher launcher = open()) {
            String first = sh(launcher, "echo $$").stdout().excerpt();
            String afterForks = sh(launcher, "for i in 1 2 3 4 5 6 7; do /bin/true; done; echo $$").stdout().excerpt();
            String next = sh(launcher, "echo $$").stdout().excerpt();
            assertThat(first).isEqualTo("2\n");
            assertThat(afterForks).isEqualTo("2\n");
            assertThat(next).as("the pid of the run after one that forked seven times").isEqualTo("2\n");
        }
    }

    /** The kernel's TCP metrics cache of the shared namespace: every 127.0.0.N a run connected to, for the next to list. */
    @Test
    void aRunCannotCacheAnAnswerInTheTcpMetricsOfTheSharedNetwork() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/sbin/ip")) || Files.isExecutable(Path.of("/sbin/ip")), "iproute2 lists tcp_metrics");
        try (Launcher launcher = open()) {
            assertThat(run(launcher, Fixtures.command("attacker"), "metrics-store", "42").stdout().excerpt()).isEqualTo("stored\n");
            LaunchResult load = sh(launcher, "PATH=/usr/sbin:/sbin:$PATH ip tcp_metrics show 2>&1; echo end");
            assertThat(load.stdout().excerpt()).doesNotContain("127.0.0.42");
        }
    }

    /**
     * Every namespace a run creates is charged to the caller's host-wide quota (96364 user namespaces
     * for root here): a run that holds them all makes every other sandbox on the machine fail to
     * start, which {@code sandbox=auto} answers by running the next candidates unsandboxed. The
     * zygote's own namespace should cap what its runs can take (a thousand leaves the quota to everyone else).
     */
    @Test
    void aRunCannotTakeTheHostsWholeNamespaceQuota() throws Exception {
        try (Launcher launcher = open()) {
            // A fork and an unshare each, a thousand times: seconds on a slow host, and the cap is what is asked here.
            LaunchResult result = launcher.launch(LaunchRequest.of(List.of(Fixtures.command("attacker"), "userns", "1500")).withWorkingDirectory(dir)
                    .withTimeout(java.time.Duration.ofSeconds(120)));
            assertThat(result.timedOut()).as("the run ended by itself").isFalse();
            assertThat(result.stdout().excerpt()).startsWith("userns:");
            int held = Integer.parseInt(result.stdout().excerpt().strip().substring("userns:".length()));
            assertThat(held).as("user namespaces one run could hold at once").isLessThan(1500);
        }
    }

    /**
     * The network namespace stops TCP, not a unix socket on the host's file system: connecting needs
     * only write permission on the socket file, which a read-only mount does not take away. Daemons
     * listen under /run (docker.sock, dbus, systemd, databases): the candidate talks to them as the
     * caller, root included.
     */
    @Test
    void aRunCannotConnectToADaemonsUnixSocketUnderRun() throws Exception {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/run")) && Files.isWritable(Path.of("/run")), "needs a writable /run to play the daemon");
        Path socket = Path.of("/run/patchgrade-attacker-" + ProcessHandle.current().pid() + ".sock");
        try (java.nio.channels.ServerSocketChannel daemon = java.nio.channels.ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
            daemon.bind(java.net.UnixDomainSocketAddress.of(socket));
            try (Launcher launcher = open()) {
                assertThat(run(launcher, Fixtures.command("attacker"), "unix-connect", socket.toString()).stdout().excerpt()).startsWith("refused");
            }
        } finally {
            Files.deleteIfExists(socket);
        }
    }

    /**
     * The same anywhere else on the host: a socket in a visible directory (here the project) reaches a
     * process outside the sandbox. The seccomp filter gives a run no unix socket to connect with.
     */
    @Test
    void aRunCannotConnectToAUnixSocketAnywhereOnTheHost() throws Exception {
        assertConnectRefused(dir.resolve("agent.sock"), this::open);
    }

    /** {@code readOnlyPaths} show a directory straight from the host: its sockets too. */
    @Test
    void aRunCannotConnectToAUnixSocketInAReadOnlyPath() throws Exception {
        Path hidden = Files.createDirectories(dir.resolve("home"));
        Path library = Files.createDirectories(hidden.resolve("lib/deep/er"));
        SandboxSpec spec = dev.patchgrade.core.SandboxAvailability.view(SandboxSpec.Mode.REQUIRED, List.of(hidden.resolve("lib")), List.of(), List.of());
        assertConnectRefused(library.resolve("ipc.sock"), () -> Launchers.open(log, spec));
    }

    /** The working directory a goal runs its children in is shown, and so are the sockets a host process has there. */
    @Test
    void aRunCannotConnectToAUnixSocketInItsWorkingDirectory() throws Exception {
        Path work = Files.createDirectories(dir.resolve("work"));
        GoalSettings settings = new GoalSettings("digest", "attacker", dir.resolve("reports"), dir.resolve("target/patchgrade"), work, Map.of())
                .withSandbox(new SandboxSettings(SandboxSpec.Mode.REQUIRED, List.of(), null, List.of(), List.of(), List.of()));
        assertConnectRefused(work.resolve("daemon.sock"), () -> settings.openLauncher(log, List.of(), dev.patchgrade.core.grade.RunInputs.of(List.of(dev.patchgrade.core.Fixtures.command("attacker")))));
    }

    /** {@code writablePaths} are shown too, and so is a host process's socket there. */
    @Test
    void aRunCannotConnectToAUnixSocketInAWritablePath() throws Exception {
        Path writable = Files.createDirectories(dir.resolve("scratch/nested"));
        SandboxSpec spec = dev.patchgrade.core.SandboxAvailability.view(SandboxSpec.Mode.REQUIRED, List.of(dir), List.of(dir.resolve("scratch")), List.of());
        assertConnectRefused(writable.resolve("shared.sock"), () -> Launchers.open(log, spec));
    }

    /** A link in the project to a socket in a system tree: reached neither through the link nor at its real path. */
    @Test
    void aRunCannotConnectThroughASymlinkToAUnixSocketInASystemTree() throws Exception {
        Path system = Path.of("/usr/lib/patchgrade-attacker-" + ProcessHandle.current().pid() + ".sock");
        Assumptions.assumeTrue(Files.isWritable(system.getParent()), "needs a writable /usr/lib to play the daemon");
        try (java.nio.channels.ServerSocketChannel daemon = java.nio.channels.ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
            daemon.bind(java.net.UnixDomainSocketAddress.of(system));
            Path link = Files.createSymbolicLink(dir.resolve("agent.sock"), system);
            try (Launcher launcher = open()) {
                assertThat(run(launcher, Fixtures.command("attacker"), "unix-connect", link.toString()).stdout().excerpt()).startsWith("refused");
                assertThat(run(launcher, Fixtures.command("attacker"), "unix-connect", system.toString()).stdout().excerpt()).startsWith("refused");
            }
        } finally {
            Files.deleteIfExists(system);
        }
    }

    /** A host daemon's socket at {@code socket}, bound before the sandbox: socket(AF_UNIX) is refused. */
    private void assertConnectRefused(Path socket, java.util.function.Supplier<Launcher> opener) throws Exception {
        try (java.nio.channels.ServerSocketChannel daemon = java.nio.channels.ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
            daemon.bind(java.net.UnixDomainSocketAddress.of(socket));
            try (Launcher launcher = opener.get()) {
                assertThat(launcher.sandbox().active()).isTrue();
                LaunchResult connect = launcher.launch(LaunchRequest.of(List.of(Fixtures.command("attacker"), "unix-connect", socket.toString()))
                        .withWorkingDirectory(socket.getParent()));
                assertThat(connect.stdout().excerpt()).as(launcher.description()).isEqualTo("refused errno=13\n");
            }
        }
    }

    /**
     * A helper gives every run of its slot the same stdout file, truncated: the file's inode is the
     * candidate's (the same user), so an xattr or a chosen access time survives to the next run.
     */
    @Test
    void aRunCannotCacheAnAnswerOnItsReusedStdoutFile() throws Exception {
        String candidate = Fixtures.command("attacker");
        try (Launcher launcher = open()) {
            run(launcher, candidate, "slot-store", "4242");
            // "xattr:VALUE atime:SECONDS": the time itself may contain the digits (1796144242 did), so compare whole fields.
            List<String> fields = List.of(run(launcher, candidate, "slot-load").stdout().excerpt().strip().split(" "));
            assertThat(fields).doesNotContain("xattr:4242", "atime:4242");
        }
    }

    /**
     * Nothing bounds a run's memory (no cgroup limit; /tmp and /dev/shm are tmpfs of half the RAM
     * each): a candidate that fills memory leaves the kernel's OOM killer to choose, and it may choose
     * Maven's JVM or another build. The target should be the first it kills.
     */
    @Test
    void aRunIsWhatTheOomKillerTakesFirst() throws Exception {
        try (Launcher launcher = open()) {
            assertThat(sh(launcher, "cat /proc/self/oom_score_adj").stdout().excerpt()).isEqualTo("1000\n");
        }
    }

    /**
     * {@code readOnlyPaths} are bound last, straight from the host, so that they show through a hidden
     * area (a library under the home directory). One that contains an oracle shows the oracle too.
     */
    @Test
    void aReadOnlyPathDoesNotShowTheOraclesInsideIt() throws Exception {
        Path project = Files.createDirectories(dir.resolve("project"));
        Path tests = Files.createDirectories(project.resolve("src/test"));
        Path cases = Files.writeString(tests.resolve("cases.jsonl"), "golden-4242\n");
        Files.writeString(tests.resolve("input.txt"), "visible\n");
        SandboxSpec spec = dev.patchgrade.core.SandboxAvailability.view(SandboxSpec.Mode.REQUIRED, List.of(project, tests), List.of(), List.of(cases));
        try (Launcher launcher = Launchers.open(log, spec)) {
            LaunchResult read = launcher.launch(LaunchRequest.of(List.of("/bin/sh", "-c", "cat src/test/input.txt src/test/cases.jsonl 2>/dev/null; echo end"))
                    .withWorkingDirectory(project));
            assertThat(read.stdout().excerpt()).isEqualTo("visible\nend\n");
        }
    }

    /**
     * Without a writable cgroup (a user without root, cgroup v2 not delegated) no exact account exists
     * for such a user without ptrace (see the README): the zygote's inherited task clock counts an
     * auto-reaped child, but not one that execs a file it cannot read. The report says what the
     * figures miss, where its CPU figures are reported, and a warning says so on the console.
     */
    @Test
    void withoutACgroupTheReportSaysTheCpuOfAnAutoReapedChildIsMissing() throws Exception {
        Path setpriv = Path.of("/usr/bin/setpriv");
        Assumptions.assumeTrue(Files.isExecutable(setpriv) && "root".equals(System.getProperty("user.name")), "needs root and setpriv");
        Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Path cache = Files.createDirectories(dir.resolve("cache"));
        System.setProperty("patchgrade.cacheDir", cache.toString());
        HelperTestHooks.startHelpersThrough(setpriv + " --reuid=65534 --regid=65534 --clear-groups");
        dev.patchgrade.core.RecordingLog recording = new dev.patchgrade.core.RecordingLog();
        GoalSettings settings = new GoalSettings("envelope", "attacker", dir.resolve("reports"), dir.resolve("target/patchgrade"), dir, Map.of())
                .withSandbox(new SandboxSettings(SandboxSpec.Mode.REQUIRED, List.of(), null, List.of(), List.of(), List.of()));
        try (Launcher launcher = settings.openLauncher(recording, List.of(), dev.patchgrade.core.grade.RunInputs.of(List.of(dev.patchgrade.core.Fixtures.command("attacker"))))) {
            Assumptions.assumeTrue(launcher.cpuLimitation() != null, "nobody has a writable CPU cgroup here: " + launcher.method());
            Map<String, Object> facts = settings.facts().sandboxJson();
            assertThat(facts).containsEntry("cpu_complete", false);
            assertThat((String) facts.get("cpu_limitation")).contains("SIGCHLD", "writable cgroup v1", "delegated cgroup v2", "max_wall_ms");
            String candidate = Fixtures.command("attacker");
            LaunchResult plain = launcher.launch(LaunchRequest.of(List.of(candidate, "sigchld-ign", "400")).withWorkingDirectory(dir));
            assertThat(plain.stdout().excerpt()).isEqualTo("answer\n");
            long plainCpu = plain.usage().userMicros() + plain.usage().systemMicros();
            if (!launcher.method().contains("task_clock")) {
                // perf_event_open refused (perf_event_paranoid 3, a container's seccomp profile): wait4 is all there is.
                assertThat(launcher.method()).isEqualTo("rusage_tree");
                assertThat(plainCpu).as("the gap this report states").isLessThan(300_000L);
                return;
            }
            assertThat(plainCpu).as("counted by the zygote's inherited task clock").isGreaterThanOrEqualTo(300_000L);
            assertThat((String) facts.get("cpu_limitation")).contains("cannot read");
            LaunchResult escaped = launcher.launch(LaunchRequest.of(List.of(candidate, "sigchld-ign-xonly", "400")).withWorkingDirectory(dir));
            assertThat(escaped.stdout().excerpt()).isEqualTo("answer\n");
            if ("0".equals(Files.readString(Path.of("/proc/sys/fs/suid_dumpable")).strip())) {
                assertThat(escaped.usage().userMicros() + escaped.usage().systemMicros()).as("the gap this report states").isLessThan(300_000L);
            }
            assertThat(settings.facts().cpuDescription()).startsWith("incomplete: ");
            assertThat(recording.warnings).anyMatch(warning -> warning.contains("SIGCHLD"));
        } finally {
            System.clearProperty("patchgrade.cacheDir");
            HelperTestHooks.startHelpersThrough("");
        }
    }

    /** Loopback only, says SPEC: AF_VSOCK ignores the network namespace and reaches the VM's host. */
    @Test
    void aRunCannotOpenAVsockSocketPastTheNetworkNamespace() throws Exception {
        try (Launcher launcher = open()) {
            assertThat(run(launcher, Fixtures.command("attacker"), "vsock").stdout().excerpt()).isEqualTo("vsock-refused\n");
        }
    }

    /**
     * The oracle is hidden at its path, but the project's repository is not: a candidate reads the
     * committed cases (or gold, or sidecar) back out of .git.
     */
    @Test
    void aCandidateCannotReadAHiddenOracleBackOutOfTheProjectsGitRepository() throws Exception {
        Path project = Files.createDirectories(dir.resolve("project"));
        Path cases = Files.writeString(project.resolve("cases.jsonl"), "{\"id\": \"a\", \"expect\": \"golden-4242\"}\n");
        Assumptions.assumeTrue(git(project, "init", "-q", ".") && git(project, "add", "cases.jsonl")
                && git(project, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "cases"), "git is needed to make the repository");
        GoalSettings settings = new GoalSettings("digest", "attacker", project.resolve("target/reports"), project.resolve("target/patchgrade"),
                project, Map.of()).withSandbox(new SandboxSettings(SandboxSpec.Mode.REQUIRED, List.of(cases), project, List.of(), List.of(), List.of()));
        try (Launcher launcher = settings.openLauncher(log, List.of(cases), dev.patchgrade.core.grade.RunInputs.of(List.of(dev.patchgrade.core.Fixtures.command("attacker"))))) {
            LaunchResult read = launcher.launch(LaunchRequest.of(List.of("/bin/sh", "-c",
                    "cat cases.jsonl 2>/dev/null; git show HEAD:cases.jsonl 2>/dev/null; ls -A .git 2>/dev/null | head -3; echo end"))
                    .withWorkingDirectory(project).withEnvironment(Map.of("PATH", "/usr/bin:/bin")));
            assertThat(read.stdout().excerpt()).isEqualTo("end\n");
        }
    }

    private static boolean git(Path directory, String... arguments) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("git"));
        command.addAll(List.of(arguments));
        try {
            Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
            process.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
            return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
