package dev.patchgrade.core.coverage;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The gcov of the coverage build's compiler: gcc's {@code gcov}, read as JSON ({@code --json-format --stdout}), or
 * one without JSON ({@code llvm-cov gcov}), read as its text listing ({@code --stdout}). Which one is told by its
 * {@code --help}, not by its name. It runs on the host, like git: it reads the build's notes and the runs' data
 * files for patchgrade.
 */
final class Gcov {
    private final List<String> tool;
    private final boolean json;
    private final String version;

    private Gcov(List<String> tool, boolean json, String version) {
        this.tool = List.copyOf(tool);
        this.json = json;
        this.version = version;
    }

    /** The tool, checked to run. */
    static Gcov probe(List<String> tool) {
        if (tool == null || tool.isEmpty() || tool.stream().anyMatch(part -> part == null || part.isBlank())) {
            throw PatchgradeException.badParameter(Setting.GCOV, "is empty; give the gcov of the compiler that built the command (gcov, gcov-12, "
                    + "or llvm-cov gcov for clang)");
        }
        String help;
        try (HostTool.Run run = HostTool.run(with(tool, "--help"), null, Map.of())) {
            help = run.stdoutText() + run.stderr();
        } catch (IOException e) {
            throw missing(tool, e.getMessage());
        }
        String version;
        try (HostTool.Run run = HostTool.run(with(tool, "--version"), null, Map.of())) {
            String out = (run.stdoutText() + run.stderr()).strip();
            if (run.exit() != 0 || out.isEmpty()) {
                throw missing(tool, "`" + run.display() + "` exited " + run.exit() + (out.isEmpty() ? "" : ": " + firstLine(out)));
            }
            version = firstLine(out);
        } catch (IOException e) {
            throw missing(tool, e.getMessage());
        }
        return new Gcov(tool, help.contains("--json-format"), version);
    }

    private static PatchgradeException missing(List<String> tool, String why) {
        return new PatchgradeException(ErrorName.TOOL_UNAVAILABLE, shown -> "patch-coverage reads the coverage data with "
                + String.join(" ", tool) + " (" + shown.setting(Setting.GCOV) + "), which cannot run here: " + why + ". Install the gcov of "
                + "the compiler that built the command (it comes with gcc; for clang use llvm-cov gcov), or set " + shown.setting(Setting.GCOV)
                + " to it");
    }

    List<String> tool() {
        return tool;
    }

    boolean json() {
        return json;
    }

    /** The first line of its {@code --version}, for the reports. */
    String version() {
        return version;
    }

    /**
     * Reads data files whose notes ({@code .gcno}) lie beside them.
     *
     * @param directory where gcov runs: its cwd, against which a text listing's relative source names resolve
     */
    void read(List<Path> dataFiles, Path directory, Consumer<GcovOutput.Data> each) {
        if (dataFiles.isEmpty()) {
            return;
        }
        if (!json) {
            // The text listing names no data file: one run each, so each listing is known to be of its file.
            for (Path data : dataFiles) {
                readText(data, directory, each);
            }
            return;
        }
        List<String> command = new ArrayList<>(tool);
        command.add("--json-format");
        command.add("--stdout");
        dataFiles.forEach(data -> command.add(data.toString()));
        List<GcovOutput.Data> empty = new ArrayList<>();
        try (HostTool.Run run = HostTool.run(command, directory, Map.of())) {
            try (InputStream in = run.stdoutStream()) {
                GcovOutput.readJson(in, directory, data -> {
                    if (data.sources().isEmpty()) {
                        empty.add(data);
                    }
                    each.accept(data);
                });
            } catch (IllegalArgumentException e) {
                throw unreadable(run, e.getMessage());
            }
            // gcov says why it could not read a file only on stderr, and goes on (exit 0) with an empty document.
            if (run.exit() != 0 || !empty.isEmpty() && !run.stderr().isBlank()) {
                throw unreadable(run, "exit " + run.exit());
            }
        } catch (IOException e) {
            throw new PatchgradeException(ErrorName.TOOL_UNAVAILABLE, "cannot run " + String.join(" ", tool) + ": " + e.getMessage(), e);
        }
    }

    private void readText(Path data, Path directory, Consumer<GcovOutput.Data> each) {
        List<String> command = new ArrayList<>(tool);
        // -t is --stdout in gcc's gcov and the only spelling llvm-cov gcov knows.
        command.add("-t");
        command.add(data.toString());
        try (HostTool.Run run = HostTool.run(command, directory, Map.of())) {
            if (run.exit() != 0) {
                throw unreadable(run, "exit " + run.exit());
            }
            try (InputStream in = run.stdoutStream()) {
                GcovOutput.readText(in, directory, listing -> each.accept(new GcovOutput.Data(data.toString(), listing.sources())));
            } catch (IllegalArgumentException e) {
                throw unreadable(run, e.getMessage());
            }
        } catch (IOException e) {
            throw new PatchgradeException(ErrorName.TOOL_UNAVAILABLE, "cannot run " + String.join(" ", tool) + ": " + e.getMessage(), e);
        }
    }

    private PatchgradeException unreadable(HostTool.Run run, String problem) {
        String said = run.stderr().strip();
        String versions = said.contains("version") && said.contains("prefer")
                ? " The data were written by another compiler version than this gcov's (" + version + "): set gcov to the one of the compiler "
                        + "that built the command (gcov-13 for gcc-13, llvm-cov gcov for clang)."
                : said.contains("stamp mismatch") ? " The .gcno files are of another build than the binary: rebuild the coverage build, objects and binary together." : "";
        return new PatchgradeException(ErrorName.COVERAGE_UNREADABLE, shown -> String.join(" ", tool) + " could not read the coverage data ("
                + problem + (said.isEmpty() ? "" : "; it said: " + abbreviate(said)) + ")." + versions + " Check "
                + shown.setting(Setting.GCOV) + " and that the coverage build was compiled and linked with --coverage");
    }

    private static List<String> with(List<String> tool, String argument) {
        List<String> command = new ArrayList<>(tool);
        command.add(argument);
        return command;
    }

    private static String firstLine(String text) {
        int newline = text.indexOf('\n');
        return (newline < 0 ? text : text.substring(0, newline)).strip();
    }

    private static String abbreviate(String text) {
        return text.length() <= 600 ? text : text.substring(0, 600) + "...";
    }
}
