package dev.patchgrade.core.coverage;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The patch as git tells it: the C and C++ files that changed under the source root since {@code base}, with
 * their hunks. git runs as a plain host process, not in the sandbox: it reads the repository for patchgrade and
 * is not the candidate (the sandbox hides the repository from the candidate's runs, so it could not run there).
 */
final class Git {
    /**
     * @param top the work tree's top
     * @param root the directory whose changes count; the paths of {@code files} are relative to it
     * @param baseObject the object {@code base} resolves to: a commit, or a tree (the empty tree counts every line)
     * @param files the changed C and C++ files that exist in the work tree, in git's order
     */
    record Patch(Path top, Path root, String base, String baseObject, List<PatchDiff.FileChange> files) {
        Path absolute(PatchDiff.FileChange file) {
            return root.resolve(file.path()).toAbsolutePath().normalize();
        }

        long changedLines() {
            return files.stream().mapToLong(f -> f.changedLines().size()).sum();
        }
    }

    private Git() {}

    /**
     * @param sourceRoot the {@code sourceRoot} setting, or {@code null} for the work tree's top
     * @param projectDirectory where the top is looked for when no {@code sourceRoot} is set
     */
    static Patch read(Path sourceRoot, Path projectDirectory, String base) {
        if (base == null || base.isBlank()) {
            throw PatchgradeException.badParameter(Setting.BASE, "is empty; give the revision the patch is measured against, e.g. HEAD~1 or origin/main");
        }
        if (base.startsWith("-")) {
            throw PatchgradeException.badParameter(Setting.BASE, "is \"" + base + "\", which git would read as an option; give a revision, e.g. HEAD~1");
        }
        Path directory = (sourceRoot != null ? sourceRoot : projectDirectory).toAbsolutePath().normalize();
        if (!Files.isDirectory(directory)) {
            throw sourceRoot != null
                    ? PatchgradeException.badParameter(Setting.SOURCE_ROOT, "is " + directory + ", which is not a directory; point it at the checkout "
                            + "whose changes count, or remove it to use the git work tree's top")
                    : new PatchgradeException(ErrorName.NOT_A_WORK_TREE, directory + " is not a directory");
        }
        try {
            version();
            Path top = Path.of(git(directory, "rev-parse", "--show-toplevel").strip());
            Path root = sourceRoot != null ? directory : top;
            String object = resolve(root, base);
            String diff = git(root, "-c", "core.quotePath=true", "diff", "--no-color", "--no-ext-diff", "--no-textconv", "--relative",
                    "--unified=0", "--src-prefix=a/", "--dst-prefix=b/", "--diff-filter=d", object, "--");
            List<PatchDiff.FileChange> files = new ArrayList<>();
            for (PatchDiff.FileChange file : PatchDiff.parse(diff)) {
                if (PatchDiff.isCOrCpp(file.path()) && !file.changedLines().isEmpty()) {
                    files.add(file);
                }
            }
            return new Patch(top, root, base, object, List.copyOf(files));
        } catch (IllegalArgumentException e) {
            throw new PatchgradeException(ErrorName.UNEXPECTED_ERROR, "git diff wrote a diff patchgrade cannot read (" + e.getMessage()
                    + "); this is a defect in patchgrade: report it with the output of `git diff --unified=0 " + base + "`", e);
        }
    }

    private static void version() {
        try (HostTool.Run run = HostTool.run(List.of("git", "--version"), null, environment())) {
            if (run.exit() != 0) {
                throw missing("`git --version` exited " + run.exit() + ": " + run.stderr().strip());
            }
        } catch (HostTool.Missing e) {
            throw missing(e.getMessage());
        } catch (IOException e) {
            throw missing(e.getMessage());
        }
    }

    private static PatchgradeException missing(String why) {
        return new PatchgradeException(ErrorName.TOOL_UNAVAILABLE, "patch-coverage needs git to find the lines the patch changed, and git "
                + "cannot run here (" + why + "). Install git (Debian and Ubuntu: apt-get install git) and put it on the PATH of the build");
    }

    /** The object {@code base} names, checked to be a tree or something that has one (a commit, a tag). */
    private static String resolve(Path root, String base) {
        try (HostTool.Run run = HostTool.run(List.of("git", "rev-parse", "--verify", "--quiet", base + "^{tree}"), root, environment())) {
            if (run.exit() != 0) {
                String shallow = isShallow(root) ? " The clone is shallow (" + root + "), so older commits are not in it: fetch more "
                        + "history (git fetch --deepen=1, or clone without --depth) or give a base that the clone holds." : "";
                throw new PatchgradeException(ErrorName.UNKNOWN_BASE, shown -> shown.setting(Setting.BASE) + " is \"" + base
                        + "\", which names no commit or tree of the repository at " + root + "." + shallow + " Set it to the revision the "
                        + "patch is measured against, e.g. " + shown.once(Setting.BASE.is("origin/main")) + " (the default HEAD~1 "
                        + "needs a parent commit)");
            }
            String tree = run.stdoutText().strip();
            // A commit where base names one, for the reports; the tree where it names a tree.
            try (HostTool.Run commit = HostTool.run(List.of("git", "rev-parse", "--verify", "--quiet", base + "^{commit}"), root, environment())) {
                return commit.exit() == 0 ? commit.stdoutText().strip() : tree;
            }
        } catch (HostTool.Missing e) {
            throw missing(e.getMessage());
        } catch (IOException e) {
            throw new PatchgradeException(ErrorName.TOOL_UNAVAILABLE, "cannot run git in " + root + ": " + e.getMessage(), e);
        }
    }

    private static boolean isShallow(Path root) {
        try (HostTool.Run run = HostTool.run(List.of("git", "rev-parse", "--is-shallow-repository"), root, environment())) {
            return run.exit() == 0 && run.stdoutText().strip().equals("true");
        } catch (IOException e) {
            return false;
        }
    }

    /** git's stdout, or error {@code not_a_work_tree} / {@code tool_unavailable} with git's own words. */
    private static String git(Path directory, String... arguments) {
        List<String> command = new ArrayList<>(List.of("git"));
        command.addAll(List.of(arguments));
        try (HostTool.Run run = HostTool.run(command, directory, environment())) {
            if (run.exit() != 0) {
                String said = run.stderr().strip();
                if (said.contains("not a git repository")) {
                    throw new PatchgradeException(ErrorName.NOT_A_WORK_TREE, shown -> directory + " is not in a git work tree ("
                            + said + "). patch-coverage measures the lines `git diff <base>` changed: build in a git checkout, or set "
                            + shown.setting(Setting.SOURCE_ROOT) + " to one");
                }
                throw new PatchgradeException(ErrorName.TOOL_UNAVAILABLE, "`" + run.display() + "` in " + directory + " exited "
                        + run.exit() + ": " + said + (said.contains("dubious ownership") ? " (the checkout belongs to another user: add it to "
                        + "git's safe.directory, as git says)" : ""));
            }
            return run.stdoutText();
        } catch (HostTool.Missing e) {
            throw missing(e.getMessage());
        } catch (IOException e) {
            throw new PatchgradeException(ErrorName.TOOL_UNAVAILABLE, "cannot run git in " + directory + ": " + e.getMessage(), e);
        }
    }

    /** The repository is the one the directory is in: a GIT_DIR or GIT_WORK_TREE of Maven's environment (a hook's) must not choose another. */
    private static Map<String, String> environment() {
        Map<String, String> variables = new HashMap<>();
        for (String name : List.of("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_CEILING_DIRECTORIES", "GIT_EXTERNAL_DIFF",
                "GIT_DIFF_OPTS")) {
            variables.put(name, null);
        }
        return variables;
    }
}
