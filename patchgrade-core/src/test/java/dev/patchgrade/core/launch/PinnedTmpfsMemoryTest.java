package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.Fixtures;
import dev.patchgrade.core.GradeLog;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sandbox on: a run's files in its private /tmp stay in memory (charged to the helper's memory cgroup) until
 * the next run on the worker starts. The helper resets the cgroup peak and takes the base *before* the zygote replaces
 * that tmpfs, so the next run's tree RSS is measured against a base that includes the pinned pages, which are freed
 * right after: a candidate whose run N pins X MB makes run N+1 report tree_rss_kb of about max(0, used - X), here 0
 * instead of 200 MB, slipping under a max_tree_rss_kb ceiling. Fix: empty/unmount the run's /tmp and /dev/shm as soon
 * as the run ends (before the reply), or have the zygote replace them before the helper takes the base (cgroup_reset).
 */
class PinnedTmpfsMemoryTest {
    @TempDir
    Path dir;


    @Test
    void pinnedTmpfsOfTheRunBeforeDoesNotHideTheNextRunsMemory() throws Exception {
        SandboxSpec spec = dev.patchgrade.core.SandboxAvailability.requiredShowing(dir);
        try (Launcher launcher = Launchers.open(GradeLog.SILENT, spec, 1)) {
            LaunchRequest touch = LaunchRequest.of(List.of(Fixtures.command("touch_mb"), "200")).withWorkingDirectory(dir);
            LaunchResult honest = launcher.launch(touch);
            launcher.launch(LaunchRequest.of(List.of("/bin/sh", "-c",
                    "for i in 1 2 3 4 5; do head -c 60000000 /dev/zero > /tmp/f$i; done")).withWorkingDirectory(dir));
            LaunchResult after = launcher.launch(touch);
            assertThat(after.usage().treeRssKb()).as("tree RSS of the same run after a run that pinned 300 MB in /tmp")
                    .isGreaterThan(honest.usage().treeRssKb() / 2);
        }
    }
}
