package dev.patchgrade.core.launch;

import dev.patchgrade.core.grade.Setting;
import dev.patchgrade.core.grade.Suggestions;


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

    /** Whether the helper's refusal was its scan for unix sockets, not the kernel. */
    static boolean isScanFailure(String stageAndErrno) {
        return stageAndErrno != null && (stageAndErrno.startsWith("socket_scan") || stageAndErrno.startsWith("socket_cover"));
    }

    /**
     * Why the kernel refused, from the helper's "stage:errno", in words with the fix.
     */
    static String explainRefusal(String stageAndErrno, Suggestions shown) {
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
                    + "could reach the host's unix sockets";
            case "socket_scan", "socket_scan_count", "socket_scan_depth", "socket_scan_path" -> "the sandbox hides every unix socket "
                    + "in the directories it shows (a socket reaches a process outside the sandbox) and could not finish that scan ("
                    + switch (errno) {
                        case 7 -> "more directory entries than it reads at helper start";
                        case 110 -> "it took longer than its time limit";
                        case 31 -> "more sockets than it hides";
                        case 40 -> "directories nested too deep";
                        default -> "errno " + errno;
                    } + "). Hide big trees the children do not need (a Docker data root, a huge cache) with " + shown.setting(Setting.HIDDEN_PATHS) + ", "
                    + "or show fewer directories";
            case "socket_cover", "socket_scan_blind" -> "the sandbox could not hide a unix socket (or an unlistable directory) "
                    + "it found in the view (errno " + errno + "); hide the directory that holds it with " + shown.setting(Setting.HIDDEN_PATHS)
                    + " (find it with "
                    + "find / -xdev -type s), or use sandbox=off on this agent";
            default -> "setting up the sandbox failed at step '" + stage + "' (errno " + errno + "); in a container, run the agent "
                    + "with --security-opt seccomp=unconfined --security-opt apparmor=unconfined";
        };
        return fix;
    }
}
