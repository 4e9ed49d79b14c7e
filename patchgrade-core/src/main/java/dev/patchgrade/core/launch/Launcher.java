package dev.patchgrade.core.launch;

/**
 * Starts commands and measures them. Safe to use from several threads at once; {@link #close()}
 * leaves no process of any launch running.
 */
public interface Launcher extends AutoCloseable {

    LaunchResult launch(LaunchRequest request);

    /** Whether rusage figures (RSS, CPU, faults, block I/O) are measured; wall time always is. */
    boolean measuresUsage();

    /** One line for logs and reports: which launch path is in use, and why. */
    String description();

    /** Whether children run in the sandbox, and why not when they do not. */
    default SandboxStatus sandbox() {
        return SandboxStatus.off("this launcher has no sandbox");
    }

    /** How the figures are measured ({@code rusage_tree}, plus {@code cgroup_v1}/{@code cgroup_v2} for tree RSS). */
    default String method() {
        return measuresUsage() ? "rusage_tree" : "none";
    }

    /**
     * What the CPU figures miss on this machine, in words for reports, or {@code null} when they cover
     * the whole tree. A child whose parent ignores SIGCHLD is reaped by the kernel itself: its CPU
     * reaches no wait4, and only a cgroup of the launcher's own counts it.
     */
    default String cpuLimitation() {
        return null;
    }

    @Override
    void close();
}
