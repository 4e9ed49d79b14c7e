package dev.patchgrade.core.launch;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The shared libraries the system's dynamic loader maps for a program: the sandbox shows them with the program.
 * The loader lists them without running the program ({@code ld.so --list}); only a loader of the system is run,
 * never one the file names itself.
 */
public final class LoadedLibraries {
    private static final int PT_INTERP = 3;
    private static final int MOST_HEADERS = 256;
    private static final int MOST_LIBRARIES = 4096;
    private static final int DEADLINE_SECONDS = 5;

    private LoadedLibraries() {}

    /** The libraries, found as the loader finds them from {@code workingDirectory} with {@code environment}'s
     * {@code LD_LIBRARY_PATH} and {@code LD_PRELOAD}; none for a static or foreign file, or on any failure. */
    public static List<Path> of(Path program, Path workingDirectory, Map<String, String> environment) {
        String loader = systemLoader(program);
        if (loader == null) {
            return List.of();
        }
        ProcessBuilder builder = new ProcessBuilder(loader, "--list", program.toString()).redirectErrorStream(true)
                .directory(workingDirectory == null || !Files.isDirectory(workingDirectory) ? null : workingDirectory.toFile());
        builder.environment().clear();
        for (String variable : List.of("LD_LIBRARY_PATH", "LD_PRELOAD")) {
            if (environment.get(variable) != null) {
                builder.environment().put(variable, environment.get(variable));
            }
        }
        // The listing goes to a file and the loader has a deadline: a library that is a FIFO (the candidate's build can make
        // one) blocks the loader's open for ever, and a pipe read to its end would block the grade with it.
        Path listing = null;
        List<Path> found = new ArrayList<>();
        try {
            listing = Files.createTempFile("patchgrade-ldlist-", ".txt");
            Process process = builder.redirectOutput(listing.toFile()).start();
            process.getOutputStream().close();
            if (!process.waitFor(DEADLINE_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(DEADLINE_SECONDS, TimeUnit.SECONDS);
                return List.of();
            }
            try (BufferedReader lines = Files.newBufferedReader(listing, StandardCharsets.UTF_8)) {
                String line;
                while ((line = lines.readLine()) != null && found.size() < MOST_LIBRARIES) {
                    Path library = listed(line, workingDirectory);
                    // The listing is text made from the program's own file (a RUNPATH may hold a newline and a line of its
                    // choosing): only what is a shared library is believed, never a directory or another file.
                    if (library != null && sharedObject(library)) {
                        found.add(library);
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            return List.copyOf(found);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (listing != null) {
                try {
                    Files.deleteIfExists(listing);
                } catch (IOException e) {
                    // a temp file left behind holds only library names
                }
            }
        }
        return List.copyOf(found);
    }

    /** A library of one line of the loader's listing: "\tlibx.so => /abs/libx.so (0x...)" or "\t/abs/libx.so (0x...)". */
    static Path listed(String line, Path workingDirectory) {
        String text = line.strip();
        int arrow = text.indexOf("=> ");
        String path = arrow >= 0 ? text.substring(arrow + 3) : text;
        int address = path.lastIndexOf(" (0x");
        path = address >= 0 ? path.substring(0, address) : path;
        try {
            if (path.startsWith("/")) {
                return Path.of(path);
            }
            if (arrow >= 0 && path.contains("/") && workingDirectory != null) {
                return workingDirectory.resolve(path).normalize(); // found through a relative RUNPATH
            }
        } catch (java.nio.file.InvalidPathException e) {
            return null;
        }
        return null;
    }

    /** A regular file (links followed) that starts as an ELF file does. */
    static boolean sharedObject(Path path) {
        if (!Files.isRegularFile(path)) {
            return false;
        }
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            ByteBuffer magic = read(channel, 0, 4);
            return magic != null && magic.getInt(0) == 0x464c457f;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** The system's loader for a dynamically linked ELF file, or {@code null}. */
    private static String systemLoader(Path program) {
        String named = interpreter(program);
        if (named == null) {
            return null;
        }
        // A loader of the build's own is never run: the system's lists the same libraries.
        String loader = SandboxSpec.SYSTEM.stream().anyMatch(Path.of(named)::startsWith) ? named : interpreter(Path.of("/bin/sh"));
        return loader != null && Files.isExecutable(Path.of(loader)) ? loader : null;
    }

    /** The loader an ELF file names ({@code PT_INTERP}); {@code null} for a static, foreign or unreadable file. */
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
                    ByteBuffer name = read(channel, ph.getLong(8), (int) Math.min(Math.max(ph.getLong(32), 1), 4096));
                    if (name == null) {
                        return null;
                    }
                    byte[] bytes = new byte[name.remaining()];
                    name.get(bytes);
                    int end = 0;
                    while (end < bytes.length && bytes[end] != 0) {
                        end++;
                    }
                    String text = new String(bytes, 0, end, StandardCharsets.UTF_8);
                    return text.startsWith("/") ? text : null;
                }
            }
            return null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
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
}
