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

    @Override
    void close();
}
