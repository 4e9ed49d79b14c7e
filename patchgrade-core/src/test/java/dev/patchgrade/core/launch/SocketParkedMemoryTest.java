package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.Fixtures;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Memory a run keeps where the zygote's socket looks did not reach (connections reset before they were
 * accepted, IPv6, MPTCP), and memory the kernel freed after the answer, which the next run used unseen.
 */
class SocketParkedMemoryTest extends SandboxedRunTest {
    /** The fixture socket_park.c: each mode keeps memory somewhere and reads it back whole. */
    static final String BINARY = dev.patchgrade.core.Fixtures.command("socket_park");

    @BeforeEach
    void needsTheSandbox() {
        dev.patchgrade.core.SandboxAvailability.assumeAvailable();
    }

    LaunchResult show(Launcher launcher, String... args) {
        List<String> command = new ArrayList<>();
        command.add(BINARY);
        command.addAll(List.of(args));
        return runLong(launcher, command.toArray(String[]::new));
    }

    /** Children reset by their clients leave every hash (TCP_CLOSE) but keep their receive queues in the accept queue. */
    @Test
    void memoryParkedInResetConnectionsNeverAcceptedCountsInTheTreePeak() {
        try (Launcher launcher = open()) {
            Assumptions.assumeTrue(launcher.method().contains("cgroup_"), "needs a memory cgroup: " + launcher.method());
            LaunchResult fin = show(launcher, "fin-park", "200", "300");
            LaunchResult rst = show(launcher, "rst-park", "200", "300");
            assertThat(fin.usage().treeRssKb()).as("control (RT17, FIN)").isGreaterThan(180_000L);
            assertThat(rst.stdout().excerpt()).startsWith("parked 200 MB read 200 MB");
            assertThat(rst.usage().treeRssKb()).as("RST: " + rst.usage()).isGreaterThan(180_000L);
        }
    }

    /** MPTCP (IPPROTO_MPTCP, a SOCK_STREAM of AF_INET): its queues are in no TCP dump, so a run gets TCP alone. */
    @Test
    void aRunGetsNoMptcpSocket() {
        try (Launcher launcher = open()) {
            LaunchResult mptcp = show(launcher, "mptcp-park", "100", "300");
            assertThat(mptcp.stderr().excerpt()).contains("Protocol not supported");
            assertThat(mptcp.stdout().excerpt()).startsWith("parked 0 MB");
            LaunchResult tcp = show(launcher, "tcp-hold", "20", "100");
            assertThat(tcp.stdout().excerpt()).as("TCP itself still works").startsWith("held 20 MB read 20 MB");
        }
    }

    /** IPv6 (and v4-mapped) TCP sockets are not in sockstat's "TCP: inuse": the zygote never dumped them. */
    @Test
    void memoryParkedInIpv6ConnectionsNeverAcceptedCountsInTheTreePeak() {
        try (Launcher launcher = open()) {
            Assumptions.assumeTrue(launcher.method().contains("cgroup_"), "needs a memory cgroup: " + launcher.method());
            LaunchResult v6 = show(launcher, "park6", "200", "300");
            LaunchResult mapped = show(launcher, "park6m", "200", "300");
            assertThat(v6.stdout().excerpt()).startsWith("parked6 200 MB read 200 MB");
            assertThat(v6.usage().treeRssKb()).as("::1: " + v6.usage()).isGreaterThan(180_000L);
            assertThat(mapped.usage().treeRssKb()).as("v4-mapped: " + mapped.usage()).isGreaterThan(180_000L);
        }
    }

    /** A run's unix garbage (memfds in flight in a cycle) is freed by a kworker after the zygote answered: the next run's credit. */
    @Test
    void memoryOfUnixGarbageIsNotCreditedToTheNextRun() {
        try (Launcher launcher = open()) {
            Assumptions.assumeTrue(launcher.method().contains("cgroup_"), "needs a memory cgroup: " + launcher.method());
            LaunchResult control = show(launcher, "touch-now", "1000");
            show(launcher, "gc-park", "2000", "64");
            LaunchResult after = show(launcher, "touch-now", "1000");
            assertThat(control.usage().treeRssKb()).isGreaterThan(1_000_000L);
            assertThat(after.usage().treeRssKb()).as("after the garbage: " + after.usage()).isGreaterThan(1_000_000L);
        }
    }

    /**
     * A listener's receive buffer set large, a connection queued on it (taking that buffer), the
     * listener's buffer then shrunk: the sampler counted the waiting connection at the shrunk size (1,000 MB read as a
     * 13 MB tree peak). SO_RCVBUF now does nothing, so a waiting connection holds at most the default buffer.
     */
    @Test
    void aListenersReceiveBufferCannotBeSet() {
        try (Launcher launcher = open()) {
            LaunchResult probe = runLong(launcher, Fixtures.command("rcvbuf_park"), "rcvbuf-probe");
            String[] words = probe.stdout().excerpt().strip().split(" ");
            assertThat(words[2]).as(probe.stdout().excerpt()).isEqualTo("set=0");
            assertThat(words[4]).as("the buffer is the kernel's default still").isEqualTo(words[1]);
        }
    }

    /** Socketpair() of a family but AF_UNIX reached the kernel's socket creation: refused by the filter now. */
    @Test
    void socketpairIsUnixAlone() {
        try (Launcher launcher = open()) {
            LaunchResult probe = runLong(launcher, Fixtures.command("rcvbuf_park"), "pair-probe");
            assertThat(probe.stdout().excerpt()).contains("pair 2/2/0 -> -1 Address family not supported", "pair 16/3/0 -> -1 Address family not supported");
        }
    }
}
