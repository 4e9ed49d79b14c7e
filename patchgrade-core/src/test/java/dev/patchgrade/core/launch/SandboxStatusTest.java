package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Each reason the helper gives for running without the sandbox is told in words that name the fix. */
class SandboxStatusTest {
    @Test
    void anArchitectureWithoutAFilterNamesTheWayOut() {
        assertThat(SandboxStatus.explainRefusal("unsupported_arch:0")).contains("x86_64 or aarch64").contains("sandbox=off")
                .contains("not tamper-proof");
    }

    @Test
    void aRefusedUserNamespaceNamesTheSettingsThatAllowIt() {
        assertThat(SandboxStatus.explainRefusal("userns:1")).contains("errno 1").contains("kernel.unprivileged_userns_clone=1")
                .contains("seccomp=unconfined");
    }

    @Test
    void aNetworkMakerThatCouldNotLeaveTheMeasuringCgroupSaysSo() {
        assertThat(SandboxStatus.explainRefusal("net_maker_cgroup:13")).contains("network namespace").contains("outside the cgroup")
                .contains("errno 13");
        assertThat(SandboxStatus.explainRefusal("net_maker:24")).contains("network namespace").doesNotContain("cgroup").contains("errno 24");
    }

    @Test
    void anUnknownStepIsNamedWithItsErrno() {
        assertThat(SandboxStatus.explainRefusal("sandbox_tmp:13")).contains("'sandbox_tmp'").contains("errno 13");
    }

    @Test
    void aUserNamespaceQuotaThatCannotBeSetSaysWhatItGuards() {
        assertThat(SandboxStatus.explainRefusal("userns_quota:13")).contains("user.max_user_namespaces").contains("hide memory")
                .contains("errno 13");
        assertThat(SandboxStatus.explainRefusal("net_maker_pdeathsig:22")).contains("network namespace").contains("errno 22");
    }
}
