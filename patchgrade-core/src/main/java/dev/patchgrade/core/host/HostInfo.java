package dev.patchgrade.core.host;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.ptr.LongByReference;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The class of machine a measurement was taken on. Ceilings recorded on one class mean nothing on
 * another, so the class is written beside them and compared before grading.
 *
 * @param className the user's name for the class, or one derived from the other fields
 */
public record HostInfo(String os, String arch, String cpuModel, int cores, String className) {

    public static HostInfo detect(String classOverride) {
        String os = System.getProperty("os.name", "unknown").toLowerCase(Locale.ROOT).replace(' ', '-');
        String arch = System.getProperty("os.arch", "unknown").toLowerCase(Locale.ROOT);
        String cpu = detectCpuModel();
        int cores = Runtime.getRuntime().availableProcessors();
        String name = classOverride != null && !classOverride.isBlank() ? classOverride.strip() : derivedClass(os, arch, cpu, cores);
        return new HostInfo(os, arch, cpu, cores, name);
    }

    public static String derivedClass(String os, String arch, String cpu, int cores) {
        String slug = cpu.toLowerCase(Locale.ROOT).replaceAll("\\(r\\)|\\(tm\\)|cpu|@.*$", " ").replaceAll("[^a-z0-9.]+", "-")
                .replaceAll("^-+|-+$", "");
        return os + "-" + arch + "-" + slug + "-" + cores + "c";
    }

    private static String detectCpuModel() {
        Path cpuinfo = Path.of("/proc/cpuinfo");
        if (Files.isReadable(cpuinfo)) {
            try {
                for (String line : Files.readAllLines(cpuinfo)) {
                    if (line.startsWith("model name") || line.startsWith("Model") || line.startsWith("Hardware")) {
                        int colon = line.indexOf(':');
                        if (colon > 0) {
                            return line.substring(colon + 1).strip().replaceAll("\\s+", " ");
                        }
                    }
                }
            } catch (IOException e) {
                return "unknown";
            }
        }
        return MacSysctl.string("machdep.cpu.brand_string");
    }

    /** macOS has no /proc; the CPU brand comes from sysctl, which the JDK does not expose. */
    private static final class MacSysctl {
        private interface LibC extends Library {
            int sysctlbyname(String name, Memory value, LongByReference length, Memory newValue, long newLength);
        }

        static String string(String name) {
            if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("mac")) {
                return "unknown";
            }
            try {
                LibC libc = Native.load("c", LibC.class);
                Memory buffer = new Memory(256);
                LongByReference length = new LongByReference(256);
                if (libc.sysctlbyname(name, buffer, length, null, 0) == 0) {
                    return buffer.getString(0).strip();
                }
            } catch (UnsatisfiedLinkError | RuntimeException e) {
                return "unknown";
            }
            return "unknown";
        }
    }
}
