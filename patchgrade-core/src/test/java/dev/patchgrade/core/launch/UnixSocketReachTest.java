package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.Fixtures;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.SandboxAvailability;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Host unix sockets. A pathname socket takes connect() (and a datagram sendto()) through a
 * read-only mount and past the network namespace, wherever the view shows it and whenever it was
 * bound; the sandbox's seccomp filter leaves a run no unix socket that can name a path.
 */
class UnixSocketReachTest {
    private static final String REFUSED = "refused errno=13\n";
    private static final String ALREADY_CONNECTED = "refused errno=106 sendto errno=106\n";

    @TempDir
    Path dir;

    @BeforeEach
    void needsTheSandbox() {
        SandboxAvailability.assumeAvailable();
    }

    private Launcher open() {
        Launcher launcher = Launchers.open(GradeLog.SILENT, SandboxAvailability.requiredShowing(dir));
        assertThat(launcher.sandbox().active()).as(launcher.sandbox().describe()).isTrue();
        return launcher;
    }

    private String run(Launcher launcher, String... arguments) {
        List<String> command = new java.util.ArrayList<>(List.of(Fixtures.command("attacker")));
        command.addAll(List.of(arguments));
        return launcher.launch(LaunchRequest.of(command).withWorkingDirectory(dir)).stdout().excerpt();
    }

    /** The control, outside any sandbox: whether an i386 getpid works on this kernel. */
    private boolean runsI386Calls() throws Exception {
        return direct("compat-getpid").equals("compat-getpid ok\n");
    }

    private String connect(Launcher launcher, Path socket) {
        return run(launcher, "unix-connect", socket.toString());
    }

    /** A socket a host daemon binds in a system tree, with no link to it from anywhere else. */
    @Test
    void aSocketInASystemTree() throws Exception {
        Path system = Path.of("/usr/lib/patchgrade-attacker2-" + ProcessHandle.current().pid() + ".sock");
        Assumptions.assumeTrue(Files.isWritable(system.getParent()), "needs a writable /usr/lib to play the daemon");
        try (ServerSocketChannel daemon = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            daemon.bind(UnixDomainSocketAddress.of(system));
            try (Launcher launcher = open()) {
                assertThat(connect(launcher, system)).isEqualTo(REFUSED);
            }
        } finally {
            Files.deleteIfExists(system);
        }
    }

    /** A socket a host process binds in a shown directory after the sandbox was built, reached by a later run. */
    @Test
    void aSocketBoundAfterTheSandboxWasBuilt() throws Exception {
        Path socket = dir.resolve("late.sock");
        try (Launcher launcher = open()) {
            assertThat(connect(launcher, socket)).isEqualTo(REFUSED);
            try (ServerSocketChannel daemon = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
                daemon.bind(UnixDomainSocketAddress.of(socket));
                assertThat(connect(launcher, socket)).isEqualTo(REFUSED);
            }
        }
    }

    /**
     * socket(AF_UNIX) refused leaves socketpair: a datagram pair's end (SOCK_RAW is a datagram to unix)
     * connect()s or sendto()s any datagram socket by path (syslog's /dev/log, journald, a service's
     * notify socket).
     */
    @Test
    void aDatagramSocketpairCannotReachADatagramDaemon() throws Exception {
        Path socket = dir.resolve("dgram.sock");
        try (Launcher launcher = open()) {
            Process daemon = datagramDaemon(socket, 1500);
            assertThat(run(launcher, "dgram-pair", socket.toString())).isEqualTo(REFUSED);
            assertThat(run(launcher, "dgram-pair", socket.toString(), "raw")).isEqualTo(REFUSED);
            assertThat(rest(daemon)).isEqualTo("nothing\n");
        }
    }

    /** A stream pair's end is connected already: it connects nowhere else, and sendto() with an address is refused. */
    @Test
    void aStreamSocketpairCannotConnectOrSendToAPath() throws Exception {
        Path socket = dir.resolve("stream.sock");
        try (ServerSocketChannel daemon = ServerSocketChannel.open(StandardProtocolFamily.UNIX); Launcher launcher = open()) {
            daemon.bind(UnixDomainSocketAddress.of(socket));
            daemon.configureBlocking(false);
            assertThat(run(launcher, "stream-pair-connect", socket.toString())).isEqualTo(ALREADY_CONNECTED + "peer closed: " + ALREADY_CONNECTED);
            assertThat(daemon.accept()).as("a connection the daemon got").isNull();
        }
    }

    /** What a program may still use: stream and seqpacket pairs between its own processes. */
    @Test
    void aStreamSocketpairStillCarriesDataBetweenARunsProcesses() {
        try (Launcher launcher = open()) {
            assertThat(run(launcher, "stream-pair")).isEqualTo("pair-ok\n");
        }
    }

    /** io_uring's socket and connect operations run in the kernel past any seccomp filter (AF_VSOCK too). */
    @Test
    void ioUringIsRefused() {
        try (Launcher launcher = open()) {
            assertThat(run(launcher, "uring-socket")).isEqualTo("refused errno=38\n");
        }
    }

    /**
     * An x86_64 program makes i386 calls through int 0x80, which seccomp sees as another arch with other
     * numbers; socketcall's arguments are in memory a filter cannot read, so it is refused whole.
     */
    @Test
    void theI386CallsAreCheckedToo() throws Exception {
        Assumptions.assumeTrue("amd64".equals(System.getProperty("os.arch")), "i386 compat calls exist on x86_64 only");
        Assumptions.assumeTrue(runsI386Calls(), "this kernel runs no i386 calls at all (int 0x80 is a SIGSEGV without ia32 emulation), "
                + "so a run cannot make them either");
        try (Launcher launcher = open()) {
            assertThat(run(launcher, "compat-sockets")).isEqualTo("""
                    socket refused errno=13
                    socketpair-dgram refused errno=13
                    socketpair-raw refused errno=13
                    socketpair-stream ok
                    socketcall refused errno=38
                    io_uring_setup refused errno=38
                    add_key refused errno=38
                    """);
        }
    }

    /** The attacks above work without the sandbox: what makes their refusals inside it mean something. */
    @Test
    void withoutTheSandboxTheAttacksReachTheDaemon() throws Exception {
        Path stream = dir.resolve("stream.sock");
        Path datagram = dir.resolve("dgram.sock");
        try (ServerSocketChannel daemon = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            daemon.bind(UnixDomainSocketAddress.of(stream));
            assertThat(direct("unix-connect", stream.toString())).isEqualTo("connected\n");
        }
        Process daemon = datagramDaemon(datagram, 5000);
        assertThat(direct("dgram-pair", datagram.toString(), "raw")).isEqualTo("connected\n");
        assertThat(rest(daemon)).isEqualTo("got:answer please\n");
    }

    /** The same for io_uring, where the host allows it: the ENOSYS inside is the filter's, not a kernel without it. */
    @Test
    void withoutTheSandboxIoUringOpens() throws Exception {
        Path disabled = Path.of("/proc/sys/kernel/io_uring_disabled");
        Assumptions.assumeTrue(!Files.exists(disabled) || "0".equals(Files.readString(disabled).strip()), "io_uring is disabled on this host");
        assertThat(direct("uring-socket")).isEqualTo("uring-open\n");
    }

    /**
     * The same filter for a build that does not run as root (these sessions do): the helper started as
     * nobody, the daemon's socket writable by anyone.
     */
    @Test
    void aRunOfANonRootBuildCannotConnectEither() throws Exception {
        Path setpriv = Path.of("/usr/bin/setpriv");
        Assumptions.assumeTrue(Files.isExecutable(setpriv) && "root".equals(System.getProperty("user.name")), "needs root and setpriv");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path cache = Files.createDirectories(dir.resolve("cache"));
        Path socket = dir.resolve("daemon.sock");
        System.setProperty("patchgrade.cacheDir", cache.toString());
        HelperTestHooks.startHelpersThrough(setpriv + " --reuid=65534 --regid=65534 --clear-groups");
        try (ServerSocketChannel daemon = ServerSocketChannel.open(StandardProtocolFamily.UNIX); Launcher launcher = open()) {
            daemon.bind(UnixDomainSocketAddress.of(socket));
            Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rwxrwxrwx"));
            assertThat(launcher.launch(LaunchRequest.of(List.of("/bin/sh", "-c", "id -u")).withWorkingDirectory(dir)).stdout().excerpt())
                    .as("the run is nobody, as the helper is").isEqualTo("65534\n");
            assertThat(connect(launcher, socket)).isEqualTo(REFUSED);
            assertThat(run(launcher, "stream-pair")).isEqualTo("pair-ok\n");
            assertThat(run(launcher, "uring-socket")).isEqualTo("refused errno=38\n");
        } finally {
            System.clearProperty("patchgrade.cacheDir");
            HelperTestHooks.startHelpersThrough("");
        }
    }

    /**
     * No unix socket by another way than socket(). PID 1 of the sandbox holds its socket to the zygote (which holds
     * the helper's and has no pid a run can name); pidfd_getfd and /proc/1/fd on it, inherited descriptors, x32 socket() and socketpair(), and socket() with
     * the family's high bits set all give the run nothing (PID 1 is not dumpable and holds capabilities the run lacks).
     */
    @Test
    void noUnixSocketByAnyOtherWay() throws Exception {
        try (Launcher launcher = open()) {
            assertThat(run(launcher, "fd-hunt")).as("PID 1, named by its number, gave nothing").isEqualTo("hunt-done pidfds=1\n");
        }
        assertThat(direct("fd-hunt")).as("without the sandbox the hunt finds the sockets of processes it can see").contains("FOUND");
    }

    /** A datagram socket at {@code socket} in a process of its own, outside the sandbox, listening for {@code millis}. */
    private static Process datagramDaemon(Path socket, int millis) throws Exception {
        Process daemon = new ProcessBuilder(Fixtures.command("attacker"), "dgram-daemon", socket.toString(), Integer.toString(millis))
                .redirectErrorStream(true).start();
        // Byte by byte: a buffered reader could take what the daemon prints later from rest().
        StringBuilder ready = new StringBuilder();
        for (int c = daemon.getInputStream().read(); c >= 0 && c != '\n'; c = daemon.getInputStream().read()) {
            ready.append((char) c);
        }
        assertThat(ready.toString()).isEqualTo("ready");
        return daemon;
    }

    /** What the daemon printed after "ready", once it ended. */
    private static String rest(Process daemon) throws Exception {
        assertThat(daemon.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new String(daemon.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    private String direct(String... arguments) throws Exception {
        return Fixtures.outputOutsideTheSandbox("attacker", dir, arguments);
    }
}
