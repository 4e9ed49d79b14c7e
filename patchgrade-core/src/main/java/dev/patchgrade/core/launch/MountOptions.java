package dev.patchgrade.core.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** Reads the mount table (Linux {@code /proc/self/mountinfo}) to tell why a built program could not run. */
final class MountOptions {
    private static final Path MOUNTINFO = Path.of("/proc/self/mountinfo");

    private MountOptions() {}

    /** True when the file system holding {@code path} is mounted {@code noexec}; false where that cannot be read. */
    static boolean noexec(Path path) {
        List<String> lines;
        Path real;
        try {
            if (!Files.isReadable(MOUNTINFO)) {
                return false;
            }
            lines = Files.readAllLines(MOUNTINFO);
            real = path.toRealPath();
        } catch (IOException e) {
            return false;
        }
        String bestMount = "";
        boolean bestNoexec = false;
        for (String line : lines) {
            // id parent major:minor root mount-point options ...
            String[] fields = line.split(" ");
            if (fields.length < 6) {
                continue;
            }
            String mountPoint = unescape(fields[4]);
            boolean under = real.toString().equals(mountPoint) || mountPoint.equals("/")
                    || real.toString().startsWith(mountPoint + "/");
            if (under && mountPoint.length() >= bestMount.length()) {
                bestMount = mountPoint;
                bestNoexec = Arrays.asList(fields[5].split(",")).contains("noexec");
            }
        }
        return bestNoexec;
    }

    private static String unescape(String field) {
        return field.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\");
    }
}
