package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.GradeLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sandbox on: memory outside the bounded /tmp and /dev/shm that a run might leave behind. A SysV
 * shared memory segment never removed (IPC_RMID), a POSIX message queue, and a tmpfs mounted in a user and mount
 * namespace of the run's own (no size= option: half of memory). Each lives in a namespace of the run, so each must be
 * gone once the run is answered, as the run's /tmp is (serve_runs remounts it before the reply so that the next
 * run's cgroup baseline holds none of it). Fails if Shmem is still up by 100 MB when the answer arrives.
 */
class IpcLeftoverTest {
    @TempDir
    Path dir;


    private void leaves(String what, String script) throws Exception {
        SandboxSpec spec = dev.patchgrade.core.SandboxAvailability.requiredShowing(dir);
        try (Launcher launcher = Launchers.open(GradeLog.SILENT, spec, 1)) {
            assertThat(launcher.sandbox().active()).isTrue();
            long before = MemInfo.shmemKb();
            LaunchResult r = launcher.launch(LaunchRequest.of(List.of("/bin/sh", "-c", script)).withWorkingDirectory(dir));
            long atAnswer = MemInfo.shmemKb() - before;
            StringBuilder later = new StringBuilder();
            for (int i = 0; i < 6; i++) {
                Thread.sleep(250);
                later.append(' ').append(MemInfo.shmemKb() - before);
            }
            System.out.println("RED-IPC " + what + " exit=" + r.exitCode() + " shmem delta KiB at the answer " + atAnswer + ", then every 250 ms"
                    + later + "\n" + r.stdout().excerpt() + r.stderr().excerpt());
            assertThat(atAnswer).as("%s: freed before the answer (else the next run's cgroup baseline holds it)", what).isLessThan(100_000);
        }
    }

    @Test
    void aSysVSegmentTheRunNeverRemovedIsGoneByTheAnswer() throws Exception {
        String perl = "use IPC::SysV qw(IPC_PRIVATE IPC_CREAT S_IRWXU); my $id = shmget(IPC_PRIVATE, 200<<20, IPC_CREAT|S_IRWXU) // die \"shmget $!\"; "
                + "my $chunk = 'x' x (1<<20); for my $i (0..199) { shmwrite($id, $chunk, $i<<20, 1<<20) or die \"shmwrite $!\"; } print \"shm $id\\n\";";
        leaves("sysv", "/usr/bin/perl -e '" + perl + "'; grep Shmem: /proc/meminfo");
    }

    @Test
    void aTmpfsInANamespaceOfTheRunsOwnIsGoneByTheAnswer() throws Exception {
        leaves("nested tmpfs", "unshare -Urm sh -c 'mount -t tmpfs none /mnt && for i in 1 2 3 4; do head -c 50000000 /dev/zero > /mnt/f$i; done "
                + "&& echo nested tmpfs ok; grep Shmem: /proc/meminfo' 2>&1");
    }

    @Test
    void aSysVSegmentLeftByOneRunDoesNotHideTheNextRunsPeak() throws Exception {
        String perl = "use IPC::SysV qw(IPC_PRIVATE IPC_CREAT S_IRWXU); my $id = shmget(IPC_PRIVATE, 300<<20, IPC_CREAT|S_IRWXU) // die; "
                + "my $chunk = 'x' x (1<<20); for my $i (0..299) { shmwrite($id, $chunk, $i<<20, 1<<20) or die; }";
        String user = "/usr/bin/perl -e '$x = \"x\" x (200<<20); select(undef, undef, undef, 0.7);'";
        SandboxSpec spec = dev.patchgrade.core.SandboxAvailability.requiredShowing(dir);
        try (Launcher launcher = Launchers.open(GradeLog.SILENT, spec, 1)) {
            Long clean = launcher.launch(LaunchRequest.of(List.of("/bin/sh", "-c", user)).withWorkingDirectory(dir)).usage().treeRssKb();
            launcher.launch(LaunchRequest.of(List.of("/bin/sh", "-c", "/usr/bin/perl -e '" + perl + "'")).withWorkingDirectory(dir));
            Long after = launcher.launch(LaunchRequest.of(List.of("/bin/sh", "-c", user)).withWorkingDirectory(dir)).usage().treeRssKb();
            System.out.println("RED-IPC tree_rss_kb of a 200 MB run: clean " + clean + ", right after a run that left 300 MB of SysV shm " + after);
            org.junit.jupiter.api.Assumptions.assumeTrue(clean != null, "no memory cgroup here");
            assertThat(after).as("the next run's tree RSS is not hidden by the previous run's leftover").isGreaterThan(clean / 2);
        }
    }
}
