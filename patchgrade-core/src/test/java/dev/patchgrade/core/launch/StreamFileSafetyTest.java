package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.Fixtures;
import dev.patchgrade.core.GradeLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run owns its output files on the host, so it could change their mode (a set-user-ID program left in
 * target/), grow them past the output cap without writing (fallocate), and leave memory behind a chain of sockets the
 * kernel frees after the next run's baseline. Fixtures stream_tamper.c and socket_chain.c are the cheating candidate's.
 */
class StreamFileSafetyTest extends SandboxedRunTest {
    @TempDir
    Path dir;

    private static int mode(Path file) throws Exception {
        return (Integer) Files.getAttribute(file, "unix:mode", java.nio.file.LinkOption.NOFOLLOW_LINKS);
    }

    @Test
    void aKeptOrCopiedStreamIsNeverSetUserId() throws Exception {
        dev.patchgrade.core.SandboxAvailability.assumeAvailable();
        SandboxSpec spec = dev.patchgrade.core.SandboxAvailability.requiredShowing(dir);
        try (Launcher launcher = Launchers.open(GradeLog.SILENT, spec, 1)) {
            Path prefix = dir.resolve("target/patchgrade/streams/envelope/default/run");
            LaunchResult refused = launcher.launch(LaunchRequest.of(List.of(Fixtures.command("stream_tamper"), "suid", "/usr/bin/id"))
                    .withWorkingDirectory(dir).keepingOutputAs(prefix));
            assertThat(refused.stderr().excerpt()).as("no set-user-ID bit, even while the run lives").contains("fchmod rc=-1 errno=1 ");
            LaunchResult kept = launcher.launch(LaunchRequest.of(List.of(Fixtures.command("stream_tamper"), "suid", "/usr/bin/id", "0777"))
                    .withWorkingDirectory(dir).keepingOutputAs(prefix));
            assertThat(kept.stderr().excerpt()).as("the run did set the execute bits on its descriptor").contains("fchmod rc=0");
            assertThat(mode(HeldOutput.sibling(prefix, ".stdout")) & 07111).as("no set-user-ID, set-group-ID or execute bit").isZero();
            LaunchResult held = launcher.launch(LaunchRequest.of(List.of(Fixtures.command("stream_tamper"), "suid", "/usr/bin/id", "0777"))
                    .withWorkingDirectory(dir).holdingOutput());
            Path copied = dir.resolve("target/patchgrade/streams/digest/default/case-1");
            held.keepOutputAs(copied);
            assertThat(mode(HeldOutput.sibling(copied, ".stdout")) & 07111).as("a held stream copied on drift").isZero();
        }
    }

    /** FALLOC_FL_KEEP_SIZE held 2 GB of disk behind a 6-byte stream; INSERT_RANGE made an 8 TB one in a millisecond. */
    @Test
    void fallocateDoesNothingPastWhatAWriteCouldDo() throws Exception {
        dev.patchgrade.core.SandboxAvailability.assumeAvailable();
        SandboxSpec spec = dev.patchgrade.core.SandboxAvailability.requiredShowing(dir);
        try (Launcher launcher = Launchers.open(GradeLog.SILENT, spec, 1)) {
            Path prefix = dir.resolve("target/patchgrade/streams/case-1");
            LaunchResult keepSize = launcher.launch(LaunchRequest.of(List.of(Fixtures.command("stream_tamper"), "falloc", "2048"))
                    .withWorkingDirectory(dir).withOutputLimit(1 << 20).keepingOutputAs(prefix));
            assertThat(keepSize.stderr().excerpt()).contains("errno=95");
            Path out = HeldOutput.sibling(prefix, ".stdout");
            assertThat((Long) Files.getAttribute(out, "unix:size")).isLessThan(1 << 20);
            LaunchResult insert = launcher.launch(LaunchRequest.of(List.of(Fixtures.command("stream_tamper"), "insert", "1"))
                    .withWorkingDirectory(dir).withOutputLimit(1 << 20).keepingOutputAs(dir.resolve("target/patchgrade/streams/case-2")));
            assertThat(insert.stderr().excerpt()).contains("insert rc=-1 errno=95");
            assertThat(insert.stdout().bytes()).isLessThanOrEqualTo(4096);
        }
    }

    /**
     * 300 MB parked in memfds behind 200 sockets in flight inside each other, freed a link a jiffy by a kernel thread:
     * past the launcher's wait, the next run's baseline took it in and that run's 300 MB read as a tree peak of 0. The parking
     * run is now one whose processes escaped: its per-process figures are unknown, and a ceiling on them an error.
     */
    @Test
    void aRunThatLeavesSocketsTheKernelStillFreesIsAnEscape() {
        dev.patchgrade.core.SandboxAvailability.assumeAvailable();
        try (Launcher launcher = open()) {
            Assumptions.assumeTrue(launcher.method().contains("cgroup_"), "needs a memory cgroup: " + launcher.method());
            LaunchResult park = runLong(launcher, Fixtures.command("socket_chain"), "chain", "320", "200");
            assertThat(park.stdout().excerpt()).startsWith("chained 320 MB behind 200 sockets");
            assertThat(park.usage().unwaitedCpuMicros()).as(park.usage().toString()).isPositive();
            assertThat(park.usage().maxRssKb()).as("no per-process figure is trusted").isNull();
        }
    }
}
