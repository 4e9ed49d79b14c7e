package dev.patchgrade.core.launch;

/**
 * Whether a launcher's children run in the sandbox, and if not, why.
 *
 * @param mode {@code namespaces} or {@code off}
 * @param reason why it is off ({@code sandbox=off was set}, the kernel's refusal, ...), or {@code null}
 */
public record SandboxStatus(String mode, String reason) {
    public static final String NAMESPACES = "namespaces";
    public static final String OFF = "off";

    public static SandboxStatus on() {
        return new SandboxStatus(NAMESPACES, null);
    }

    public static SandboxStatus off(String reason) {
        return new SandboxStatus(OFF, reason);
    }

    public boolean active() {
        return NAMESPACES.equals(mode);
    }

    /** One line for reports: what a reader must know about how far the verdict can be trusted. */
    public String describe() {
        return active() ? "namespaces: children could not see or change oracles, reports or the launcher"
                : "off (" + reason + "): not tamper-proof, a candidate could read oracles and rewrite reports";
    }

    /**
     * Why the kernel refused, from the helper's "stage:errno", in words with the fix.
     */
    static String explainRefusal(String stageAndErrno) {
        String stage = stageAndErrno;
        int errno = 0;
        int colon = stageAndErrno.lastIndexOf(':');
        if (colon > 0) {
            stage = stageAndErrno.substring(0, colon);
            try {
                errno = Integer.parseInt(stageAndErrno.substring(colon + 1));
            } catch (NumberFormatException e) {
                errno = 0;
            }
        }
        String fix = switch (stage) {
            case "userns", "uid_map", "gid_map", "setgroups" -> "the kernel refused a user namespace (errno " + errno + "). Allow "
                    + "unprivileged user namespaces: sysctl kernel.unprivileged_userns_clone=1 (Debian/Ubuntu), "
                    + "user.max_user_namespaces > 0, kernel.apparmor_restrict_unprivileged_userns=0 (Ubuntu 24.04+); in Docker run the "
                    + "agent with --security-opt seccomp=unconfined (the default profile blocks unshare/clone of namespaces) "
                    + "or --privileged";
            case "unsupported" -> "the sandbox needs Linux namespaces; this platform has none";
            case "unsupported_arch" -> "the sandbox's seccomp filter knows x86_64 and aarch64 only, and without it a run "
                    + "could reach the host's unix sockets; grade on an x86_64 or aarch64 agent, or use sandbox=off here (verdicts "
                    + "then are not tamper-proof)";
            case "userns_quota" -> "the launcher could not set user.max_user_namespaces to 0 inside its own user namespace (errno "
                    + errno + "), and without that a run could make a user namespace of its own and hide memory from the "
                    + "measurement; in a container, run the agent with --security-opt seccomp=unconfined --security-opt apparmor=unconfined";
            case "net_maker", "net_maker_cgroup", "net_maker_pdeathsig", "net_maker_dumpable" -> "the launcher could not start the process "
                    + "that makes each run's network namespace" + (stage.equals("net_maker_cgroup") ? " outside the cgroup that measures runs" : "")
                    + " (errno " + errno
                    + "); in a container, run the agent with --security-opt seccomp=unconfined --security-opt apparmor=unconfined";
            default -> "setting up the sandbox failed at step '" + stage + "' (errno " + errno + "); in a container, run the agent "
                    + "with --security-opt seccomp=unconfined --security-opt apparmor=unconfined";
        };
        return fix;
    }
}
