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
