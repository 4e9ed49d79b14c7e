package dev.patchgrade.core.classify;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The library search path an ELF executable names itself ({@code DT_RUNPATH}, else {@code DT_RPATH}): where a
 * reference built in its tree loads its own code from (a CMake build tree's absolute RUNPATH to
 * {@code refbuild/lib}: red team 17). 64-bit little-endian files only; anything else names none.
 */
final class ElfSearchPath {
    private static final int PT_LOAD = 1;
    private static final int PT_DYNAMIC = 2;
    private static final int PT_INTERP = 3;
    private static final long DT_NULL = 0;
    private static final long DT_STRTAB = 5;
    private static final long DT_RPATH = 15;
    private static final long DT_RUNPATH = 29;
    private static final int MOST_HEADERS = 256;
    private static final int MOST_DYNAMIC = 4096;

    private ElfSearchPath() {}

    /** The entries as written ({@code $ORIGIN} not replaced), or none where the file is no such ELF or names none. */
    static List<String> of(Path file) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer header = read(channel, 0, 64);
            if (header == null || header.getInt(0) != 0x464c457f || header.get(4) != 2 || header.get(5) != 1) {
                return List.of();
            }
            long programHeaders = header.getLong(32);
            int entrySize = Short.toUnsignedInt(header.getShort(54));
            int count = Short.toUnsignedInt(header.getShort(56));
            if (entrySize < 56 || count > MOST_HEADERS) {
                return List.of();
            }
            List<long[]> loads = new ArrayList<>();
            long dynamicOffset = -1;
            long dynamicSize = 0;
            for (int i = 0; i < count; i++) {
                ByteBuffer ph = read(channel, programHeaders + (long) i * entrySize, 56);
                if (ph == null) {
                    return List.of();
                }
                int type = ph.getInt(0);
                if (type == PT_LOAD) {
                    loads.add(new long[] {ph.getLong(16), ph.getLong(8), ph.getLong(32)}); // vaddr, offset, filesz
                } else if (type == PT_DYNAMIC) {
                    dynamicOffset = ph.getLong(8);
                    dynamicSize = ph.getLong(32);
                }
            }
            if (dynamicOffset < 0) {
                return List.of();
            }
            long strtab = -1;
            long path = -1;
            long rpath = -1;
            for (int i = 0; i < Math.min(dynamicSize / 16, MOST_DYNAMIC); i++) {
                ByteBuffer entry = read(channel, dynamicOffset + i * 16L, 16);
                if (entry == null) {
                    return List.of();
                }
                long tag = entry.getLong(0);
                long value = entry.getLong(8);
                if (tag == DT_NULL) {
                    break;
                } else if (tag == DT_STRTAB) {
                    strtab = value;
                } else if (tag == DT_RUNPATH) {
                    path = value;
                } else if (tag == DT_RPATH) {
                    rpath = value;
                }
            }
            long chosen = path >= 0 ? path : rpath;
            long table = fileOffset(strtab, loads);
            if (chosen < 0 || table < 0) {
                return List.of();
            }
            String text = string(channel, table + chosen);
            List<String> entries = new ArrayList<>();
            for (String part : text.split(":")) {
                if (!part.isEmpty()) {
                    entries.add(part);
                }
            }
            return entries;
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /** The program interpreter an ELF file names ({@code PT_INTERP}: its dynamic loader), or null. */
    static String interpreter(Path file) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer header = read(channel, 0, 64);
            if (header == null || header.getInt(0) != 0x464c457f || header.get(4) != 2 || header.get(5) != 1) {
                return null;
            }
            long programHeaders = header.getLong(32);
            int entrySize = Short.toUnsignedInt(header.getShort(54));
            int count = Short.toUnsignedInt(header.getShort(56));
            for (int i = 0; entrySize >= 56 && i < Math.min(count, MOST_HEADERS); i++) {
                ByteBuffer ph = read(channel, programHeaders + (long) i * entrySize, 56);
                if (ph != null && ph.getInt(0) == PT_INTERP) {
                    String name = string(channel, ph.getLong(8));
                    return name.startsWith("/") ? name : null;
                }
            }
            return null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The libraries the system's dynamic loader maps for an executable, with every dependency's own search path,
     * libraries named by an absolute path, a relative RUNPATH (from {@code workingDirectory}) and
     * {@code LD_LIBRARY_PATH}/{@code LD_PRELOAD} of {@code environment} (red team 18: each of these left the
     * reference's code readable). The loader lists them without running the program ({@code --list}); only a loader
     * of the system is run, never the one the file names. None for a static or foreign file, or on any failure.
     */
    static List<Path> libraries(Path file, Path workingDirectory, java.util.Map<String, String> environment) {
        String interpreter = interpreter(file);
        if (interpreter != null && !ReferenceFiles.system(Path.of(interpreter))) {
            // A loader of the build's own is never run: the system's lists the same libraries (red team 19).
            interpreter = interpreter(Path.of("/bin/sh"));
        }
        if (interpreter == null || !ReferenceFiles.system(Path.of(interpreter)) || !java.nio.file.Files.isExecutable(Path.of(interpreter))) {
            return List.of();
        }
        ProcessBuilder builder = new ProcessBuilder(interpreter, "--list", file.toString()).redirectErrorStream(true)
                .directory(workingDirectory == null ? null : workingDirectory.toFile());
        builder.environment().clear();
        for (String variable : List.of("LD_LIBRARY_PATH", "LD_PRELOAD")) {
            if (environment.get(variable) != null) {
                builder.environment().put(variable, environment.get(variable));
            }
        }
        List<Path> found = new ArrayList<>();
        try {
            Process process = builder.start();
            process.getOutputStream().close();
            try (java.io.BufferedReader lines = new java.io.BufferedReader(new java.io.InputStreamReader(process.getInputStream(),
                    java.nio.charset.StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null && found.size() < 4096) {
                    // "\tlibref.so => /abs/libref.so (0x...)" or "\t/abs/libref.so (0x...)"
                    String text = line.strip();
                    int arrow = text.indexOf("=> ");
                    String path = arrow >= 0 ? text.substring(arrow + 3) : text;
                    int address = path.lastIndexOf(" (0x");
                    path = address >= 0 ? path.substring(0, address) : path;
                    if (path.startsWith("/")) {
                        found.add(Path.of(path));
                    } else if (arrow >= 0 && path.contains("/") && workingDirectory != null) {
                        // found through a relative RUNPATH: relative to where the loader ran
                        found.add(workingDirectory.resolve(path).normalize());
                    }
                }
            }
            if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (IOException | RuntimeException e) {
            return List.copyOf(found);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return List.copyOf(found);
    }

    private static long fileOffset(long address, List<long[]> loads) {
        for (long[] load : loads) {
            if (address >= load[0] && address < load[0] + load[2]) {
                return address - load[0] + load[1];
            }
        }
        return -1;
    }

    private static ByteBuffer read(FileChannel channel, long position, int size) throws IOException {
        if (position < 0) {
            return null;
        }
        ByteBuffer buffer = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        while (buffer.hasRemaining()) {
            if (channel.read(buffer, position + buffer.position()) < 0) {
                return null;
            }
        }
        return buffer.flip();
    }

    private static String string(FileChannel channel, long position) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(4096);
        int n = channel.read(buffer, position);
        if (n <= 0) {
            return "";
        }
        byte[] bytes = new byte[n];
        buffer.flip().get(bytes);
        int end = 0;
        while (end < n && bytes[end] != 0) {
            end++;
        }
        return new String(bytes, 0, end, java.nio.charset.StandardCharsets.UTF_8);
    }
}
