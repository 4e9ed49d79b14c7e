package dev.patchgrade.core.report;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;

/** This machine's name for the {@code hostname} of a JUnit suite, read once without a DNS lookup where the kernel says it. */
final class HostName {
    static final String LOCAL = detect();

    private HostName() {}

    private static String detect() {
        try {
            Path kernel = Path.of("/proc/sys/kernel/hostname");
            if (Files.isReadable(kernel)) {
                String name = Files.readString(kernel).strip();
                if (!name.isEmpty()) {
                    return name;
                }
            }
        } catch (IOException e) {
            // fall through
        }
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env.strip();
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }
}
