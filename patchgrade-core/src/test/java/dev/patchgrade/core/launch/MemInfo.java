package dev.patchgrade.core.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The machine's memory as /proc/meminfo tells it, for tests that check what a run leaves behind. */
final class MemInfo {
    private MemInfo() {}

    /** Memory in tmpfs and shared memory segments, machine-wide. */
    static long shmemKb() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
            if (line.startsWith("Shmem:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IllegalStateException("no Shmem line in /proc/meminfo");
    }
}
