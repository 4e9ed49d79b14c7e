package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.Suggestions;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class HelperProtocolTest {
    private static final String TOKEN = "5eed";

    @Test
    void anAnswerCountsOnlyWithTheTokenOfItsOwnRun() {
        String done = "done status=exited code=0 signal=0 signame=- timed_out=0 maxrss_kb=1 utime_us=1 stime_us=1 minflt=1 majflt=0 "
                + "inblock=0 oublock=0 wall_us=1 leftovers=0 cpu_wait_us=0 leader_cpu_us=1 unwaited_cpu_us=0 init_cpu_us=0 tasks=1 tree_rss_kb=-1";
        assertThat(HelperProtocol.valid(HelperProtocol.parse(done + " run=" + TOKEN), TOKEN)).isTrue();
        assertThat(HelperProtocol.valid(HelperProtocol.parse(done), TOKEN)).as("no token").isFalse();
        assertThat(HelperProtocol.valid(HelperProtocol.parse(done + " run=beef"), TOKEN)).as("another run's token").isFalse();
        assertThat(HelperProtocol.valid(HelperProtocol.parse(done + " extra=1 run=" + TOKEN), TOKEN)).as("a key of a child's making").isFalse();
        assertThat(HelperProtocol.valid(HelperProtocol.parse("nostart stage=exec errno=2 run=" + TOKEN), TOKEN)).isTrue();
    }

    @Test
    void aRunTheSandboxCouldNotPrepareSaysWhichPartAndWhereTheFixIs() {
        LaunchRequest request = LaunchRequest.of(List.of("/bin/true"));
        for (String stage : List.of("sandbox_tmp", "sandbox_ipc")) {
            StartFailure failure = HelperProtocol.startFailure(HelperProtocol.parse("nostart stage=" + stage + " errno=1 run=" + TOKEN), request,
                    Path.of("/bin/true"), Suggestions.PLAIN);
            assertThat(failure.detail()).contains(stage.equals("sandbox_tmp") ? "/tmp and /dev/shm" : "IPC namespace")
                    .contains("Docker and Kubernetes").contains("errno 1");
        }
        StartFailure refused = HelperProtocol.startFailure(HelperProtocol.parse("nostart stage=sandbox_net errno=1 run=" + TOKEN), request,
                Path.of("/bin/true"), Suggestions.PLAIN);
        assertThat(refused.detail()).contains("network namespace").contains("Docker and Kubernetes").contains("errno 1");
        StartFailure quota = HelperProtocol.startFailure(HelperProtocol.parse("nostart stage=sandbox_net errno=28 run=" + TOKEN), request,
                Path.of("/bin/true"), Suggestions.PLAIN);
        assertThat(quota.detail()).contains("user.max_net_namespaces").doesNotContain("Jenkins agents").contains("errno 28");
    }
}
