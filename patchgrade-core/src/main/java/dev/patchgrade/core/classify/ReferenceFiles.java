package dev.patchgrade.core.classify;

import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.grade.Setting;
import dev.patchgrade.core.launch.ChildEnvironment;
import dev.patchgrade.core.launch.ExecutableCheck;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What of a three-column reference is frozen and hidden. Its executable is not always its code: a reference run
 * by an interpreter ({@code /bin/sh frozen/ref.sh}) is its script, and a binary loads libraries and data beside it
 * ({@code $ORIGIN} rpath). A candidate that can read them prints the reference's answers (red teams 13 and 14).
 * Frozen: the executable and every file its command names (an interpreter's or a wrapper's script, its inputs).
 * Hidden from the candidate: those but the files the candidate names too, where a symbolic link
 * leads, and the directory of the reference's own file, wherever it is, unless that directory holds the project,
 * the working directory or the candidate. The system's own interpreters are frozen where they run the reference
 * but never hidden: every candidate's {@code system()} needs {@code /bin/sh}.
 *
 * @param root the reference's own file: its executable, or an interpreter's script
 * @param frozen the executable first, then the script, then the other files the command names
 * @param directories the reference's own directories: its file's, and for a runner of no distribution (a compiled
 *     program named like an interpreter, a virtualenv's) the program's too; none where they are not the reference's own
 */
public record ReferenceFiles(Path root, List<Path> frozen, List<Path> directories) {
    /** Directories of the distribution's own packages (not {@code /usr/local}, not {@code /opt}: what a user installs there is no interpreter of the system). */
    private static final List<Path> SYSTEM = Stream.of("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/usr/bin", "/usr/sbin",
            "/usr/lib", "/usr/lib32", "/usr/lib64", "/usr/libx32", "/usr/libexec").map(Path::of).toList();
    private static final Pattern INTERPRETER = Pattern.compile(
            "(ba|da|z|k|c|tc|fi)?sh|python[0-9.]*|pypy[0-9.]*|perl[0-9.]*|ruby[0-9.]*|node(js)?|lua[0-9.]*|luajit|php[0-9.]*|tclsh[0-9.]*"
                    + "|[gm]?awk|Rscript|java");
    /** Programs of the system that run the command they are given: the reference is what they run, not them. */
    private static final Pattern WRAPPER = Pattern.compile(
            "env|timeout|stdbuf|nice|nohup|ionice|taskset|setarch|linux(32|64)|chrt|time|setsid|prlimit|numactl|valgrind(\\.bin)?|busybox"
                    + "|ld-linux.*\\.so.*|ld64\\.so.*|ld\\.so");
    /** Flags that carry an interpreter's code in a word, or name it by no file (a module): such code can be neither frozen nor hidden. */
    private static final List<Map.Entry<Pattern, Set<String>>> CODE_FLAGS = List.of(
            Map.entry(Pattern.compile("(ba|da|z|k|c|tc|fi)?sh"), Set.of("-c")),
            Map.entry(Pattern.compile("python[0-9.]*|pypy[0-9.]*"), Set.of("-c", "-m")),
            Map.entry(Pattern.compile("perl[0-9.]*|ruby[0-9.]*|lua[0-9.]*|luajit|Rscript"), Set.of("-e", "-E")),
            Map.entry(Pattern.compile("node(js)?"), Set.of("-e", "--eval", "-p", "--print")),
            Map.entry(Pattern.compile("php[0-9.]*"), Set.of("-r", "-R", "-B", "-E")));
    /**
     * Flags that load more of an interpreter's code: a file ({@code node --require ./hook.js}, {@code ruby -r ./ref.rb}) or a
     * directory its modules are found in ({@code perl -Ifrozen/lib -MRef}); their value is attached or the next word.
     */
    private static final List<Map.Entry<Pattern, Set<String>>> LOAD_FLAGS = List.of(
            Map.entry(Pattern.compile("perl[0-9.]*"), Set.of("-I", "-M", "-m")),
            Map.entry(Pattern.compile("ruby[0-9.]*"), Set.of("-I", "-r", "--require")),
            Map.entry(Pattern.compile("node(js)?"), Set.of("-r", "--require", "--import", "--loader", "--experimental-loader")),
            Map.entry(Pattern.compile("lua[0-9.]*|luajit"), Set.of("-l")));
    /** Environment variables that name directories an interpreter loads modules from, by family. */
    private static final List<Map.Entry<Pattern, List<String>>> LOAD_PATHS = List.of(
            Map.entry(Pattern.compile("python[0-9.]*|pypy[0-9.]*"), List.of("PYTHONPATH")),
            Map.entry(Pattern.compile("perl[0-9.]*"), List.of("PERL5LIB", "PERLLIB")),
            Map.entry(Pattern.compile("ruby[0-9.]*"), List.of("RUBYLIB")),
            Map.entry(Pattern.compile("node(js)?"), List.of("NODE_PATH")),
            Map.entry(Pattern.compile("java"), List.of("CLASSPATH")),
            Map.entry(Pattern.compile("lua[0-9.]*|luajit"), List.of("LUA_PATH", "LUA_CPATH", "LUA_PATH_5_4", "LUA_CPATH_5_4")));
    /** Environment variables that carry an interpreter's own options (red team 19: PERL5OPT=-Idir, NODE_OPTIONS=--require x). */
    private static final List<Map.Entry<Pattern, List<String>>> OPTION_VARIABLES = List.of(
            Map.entry(Pattern.compile("perl[0-9.]*"), List.of("PERL5OPT")),
            Map.entry(Pattern.compile("ruby[0-9.]*"), List.of("RUBYOPT")),
            Map.entry(Pattern.compile("node(js)?"), List.of("NODE_OPTIONS")),
            Map.entry(Pattern.compile("java"), List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS")));
    /** Install prefixes a reference's own directory is never widened to: what else lives there is not the reference's. */
    private static final List<Path> SHARED_PREFIXES = Stream.of("/usr", "/usr/local", "/opt").map(Path::of).toList();

    /**
     * @param executable the resolved executable (the command's first word)
     * @param reference the reference command as configured
     * @param workingDirectory where relative words resolve, and a directory the reference must not take
     * @param keep files the reference's directory must not take from a candidate (the candidate's executable)
     * @param projectDirectory the project, which no reference directory may hold
     */
    public static ReferenceFiles of(Path executable, List<String> reference, Path workingDirectory, List<Path> keep, Path projectDirectory) {
        return of(executable, reference, workingDirectory, keep, projectDirectory, ChildEnvironment.pinned(Map.of()));
    }

    /** @param environment the reference's whole environment: its {@code PATH} finds the program a wrapper names by a bare name */
    public static ReferenceFiles of(Path executable, List<String> reference, Path workingDirectory, List<Path> keep, Path projectDirectory,
            Map<String, String> environment) {
        Path exe = executable.toAbsolutePath().normalize();
        List<Path> named = namedFiles(reference, workingDirectory);
        if (wrapper(exe)) {
            // A wrapper of the system (timeout, env, valgrind, the dynamic loader) runs a command of its own: that
            // command is the reference, classified in turn (red team 17: `timeout 10 python3 -m module data.csv`,
            // `valgrind --suppressions=ci/vg.supp frozen/bin/ref` took a data or option file for the reference).
            Wrapped wrapped = wrappedCommand(exe, reference, workingDirectory, environment);
            int at = wrapped.at();
            // The program is found as the wrapper finds it: on the PATH env gives it (red team 18: `env PATH=refbuild:...
            // sort` ran refbuild/sort, classified as /usr/bin/sort), from the directory env -C moves to.
            ExecutableCheck.Resolution program = at < 0 ? null
                    : ExecutableCheck.resolve(reference.get(at), wrapped.workingDirectory(), wrapped.environment());
            // Named but not runnable (not executable yet), or a bare name the PATH lacks that names a file here: still
            // the reference's file, frozen and hidden.
            if (program != null && (program.path() == null || !Files.isRegularFile(program.path()))) {
                Path here = wrapped.workingDirectory().resolve(reference.get(at)).toAbsolutePath().normalize();
                program = Files.isRegularFile(here) ? new ExecutableCheck.Resolution(here, null) : program;
            }
            if (program == null || program.path() == null || !Files.isRegularFile(program.path())) {
                throw PatchgradeException.badParameter(Setting.REFERENCE, "runs " + exe + ", a wrapper, and names no program it could find"
                        + (at < 0 ? "" : " (\"" + reference.get(at) + "\")") + ": the reference it runs could neither be frozen nor hidden from "
                        + "the candidate. Name the program as a path (e.g. <arg>" + exe + "</arg><arg>frozen/bin/ref</arg>)");
            }
            ReferenceFiles inner = of(program.path(), reference.subList(at, reference.size()), wrapped.workingDirectory(), keep,
                    projectDirectory, wrapped.environment());
            Set<Path> frozen = new LinkedHashSet<>();
            frozen.add(exe);
            frozen.addAll(inner.frozen());
            frozen.addAll(named);
            return new ReferenceFiles(inner.root(), List.copyOf(frozen), inner.directories());
        }
        Path root = exe;
        Interpreted interpreted = new Interpreted(exe, List.of(), List.of());
        if (interpreter(exe)) {
            // The interpreter runs the reference's code: its script, the first word that is no option (red team 16:
            // `python3 -m module data.csv` and `sh -c '. ref.sh' sh data.csv` passed a data file off as the script).
            interpreted = script(exe, reference, workingDirectory, environment);
            root = interpreted.script();
        }
        List<Path> directories = new ArrayList<>();
        Path directory = ownDirectory(root, workingDirectory, keep, projectDirectory);
        if (directory != null) {
            directories.add(directory);
        }
        for (Path loaded : interpreted.loaded()) {
            // Code the interpreter loads by a flag is the reference's as much as its script, and so is what lies beside it.
            Path beside = ownDirectory(loaded, workingDirectory, keep, projectDirectory);
            if (beside != null && !directories.contains(beside)) {
                directories.add(beside);
            }
        }
        for (Path modules : interpreted.moduleDirectories()) {
            // A directory of modules (-I, PERL5LIB, PYTHONPATH): the reference's own where it is neither the system's, nor
            // shared, nor holds what the build needs (a candidate that shares it, its project).
            List<Path> held = new ArrayList<>(List.of(projectDirectory, workingDirectory));
            held.addAll(keep);
            addOwnTree(directories, modules, held);
        }
        if (root.equals(exe)) {
            // A compiled reference loads its code where its RUNPATH says: a CMake build tree's absolute one to
            // refbuild/lib beside refbuild/programs (red team 17). The tree they share is the reference's own.
            for (Path tree : searchPathTrees(exe, workingDirectory, keep, projectDirectory)) {
                if (!directories.contains(tree)) {
                    directories.add(tree);
                }
            }
        }
        if (!root.equals(exe) && !system(real(exe))) {
            // A program of no distribution named like an interpreter may be the reference's own build (a patched lua,
            // awk or bash: red team 17), with its libraries beside it. Not a shared bin directory (/usr/local/bin).
            Path programDirectory = ownDirectory(exe, workingDirectory, keep, projectDirectory);
            if (programDirectory != null && !directories.contains(programDirectory)
                    && SHARED_PREFIXES.stream().noneMatch(shared -> shared.equals(programDirectory.getParent()) || shared.equals(programDirectory))) {
                directories.add(programDirectory);
            }
        }
        List<Path> held = new ArrayList<>(List.of(projectDirectory, workingDirectory));
        held.addAll(keep);
        // What else the command runs or names is the reference's too (red team 18): a program a launcher of no known
        // syntax runs (setpriv, flock, strace), an interpreter's other files (node --env-file x, gawk -f a -f b), with
        // what lies beside them; a directory it names; a file inside a short option (-Tdata/answers.txt).
        List<Path> programs = new ArrayList<>();
        if (root.equals(exe)) {
            programs.add(exe);
        }
        // A script's #! interpreter of the build's own (the patched lua under grade: red team 19).
        Path shebang = shebangInterpreter(root);
        if (shebang != null && !system(real(shebang))) {
            addOwn(directories, ownDirectory(shebang, workingDirectory, keep, projectDirectory));
            programs.add(shebang);
        }
        for (Path file : named) {
            boolean program = Files.isExecutable(file) && !system(real(file));
            if (program || interpreter(exe)) {
                addOwn(directories, ownDirectory(file, workingDirectory, keep, projectDirectory));
            }
            if (program && !programs.contains(file)) {
                programs.add(file);
                searchPathTrees(file, workingDirectory, keep, projectDirectory).forEach(tree -> addOwn(directories, tree));
            }
        }
        for (Path namedDirectory : namedDirectories(reference, workingDirectory)) {
            addOwnTree(directories, namedDirectory, held);
        }
        for (Path attached : attachedFiles(reference, workingDirectory)) {
            addOwn(directories, attached);
        }
        // The libraries the loader maps (a dependency's own RUNPATH, an absolute DT_NEEDED, a relative RUNPATH,
        // LD_LIBRARY_PATH and LD_PRELOAD), and the directories those variables name.
        for (Path program : programs) {
            for (Path library : ElfSearchPath.libraries(program, workingDirectory, environment)) {
                if (!system(real(library))) {
                    addOwn(directories, ownDirectory(searchDirectoryOf(library), workingDirectory, keep, projectDirectory));
                }
            }
            // A loader of the build's own (PT_INTERP outside the system) is the reference's too.
            String loader = ElfSearchPath.interpreter(program);
            if (loader != null && !system(real(Path.of(loader)))) {
                addOwn(directories, ownDirectory(Path.of(loader), workingDirectory, keep, projectDirectory));
            }
        }
        for (String entry : environment.getOrDefault("LD_LIBRARY_PATH", "").split(":")) {
            if (!entry.isBlank()) {
                addOwnTree(directories, workingDirectory.resolve(entry).normalize(), held);
            }
        }
        for (String entry : environment.getOrDefault("LD_PRELOAD", "").split("[: ]")) {
            Path preload = entry.isBlank() ? null : workingDirectory.resolve(entry).normalize();
            if (preload != null && Files.isRegularFile(preload) && !system(preload)) {
                addOwn(directories, ownDirectory(preload, workingDirectory, keep, projectDirectory));
            }
        }
        Set<Path> frozen = new LinkedHashSet<>();
        frozen.add(exe);
        frozen.add(root);
        frozen.addAll(interpreted.loaded());
        frozen.addAll(named);
        return new ReferenceFiles(root, List.copyOf(frozen), List.copyOf(directories));
    }

    /** For grading without a candidate in view (freezing, and the module's other goals): the project and working directory kept. */
    public static ReferenceFiles of(Path executable, List<String> reference, Path workingDirectory, Path projectDirectory) {
        return of(executable, reference, workingDirectory, List.of(), projectDirectory);
    }

    /** The same, with the reference's environment. */
    public static ReferenceFiles of(Path executable, List<String> reference, Path workingDirectory, Path projectDirectory,
            Map<String, String> environment) {
        return of(executable, reference, workingDirectory, List.of(), projectDirectory, environment);
    }

    /**
     * Whether the executable is an interpreter (its code is the script it runs), by its name or the name of the
     * program it links to, wherever it is: {@code /usr/local/bin/python3} in the python images, a virtualenv's or
     * conda's (red team 16).
     */
    public static boolean interpreter(Path executable) {
        return INTERPRETER.matcher(String.valueOf(real(executable).getFileName())).matches()
                || INTERPRETER.matcher(String.valueOf(executable.getFileName())).matches();
    }

    /** Whether the executable is the system's own program that runs another command (timeout, env, the dynamic loader). */
    public static boolean wrapper(Path executable) {
        Path real = real(executable);
        return system(real) && (WRAPPER.matcher(String.valueOf(real.getFileName())).matches()
                || WRAPPER.matcher(String.valueOf(executable.getFileName())).matches());
    }

    /**
     * Whether the executable runs the reference's code rather than being it: an interpreter or a wrapper. Any other
     * program, the distribution's too ({@code /usr/bin/sort -r data.txt}: red team 16), is the reference itself.
     */
    public static boolean runner(Path executable) {
        return interpreter(executable) || wrapper(executable);
    }

    /** How a wrapper's own words are spelled: options that take the next word as their value, and positional words before the command. */
    private record WrapperSyntax(Set<String> valued, int positionals) {}

    private static final Map<String, WrapperSyntax> WRAPPERS = Map.ofEntries(
            Map.entry("timeout", new WrapperSyntax(Set.of("-k", "-s", "--kill-after", "--signal"), 1)),
            Map.entry("env", new WrapperSyntax(Set.of("-u", "-C", "--unset", "--chdir"), 0)),
            Map.entry("nice", new WrapperSyntax(Set.of("-n", "--adjustment"), 0)),
            Map.entry("stdbuf", new WrapperSyntax(Set.of("-i", "-o", "-e"), 0)),
            Map.entry("ionice", new WrapperSyntax(Set.of("-c", "-n", "--class", "--classdata"), 0)),
            Map.entry("taskset", new WrapperSyntax(Set.of(), 1)),
            Map.entry("setarch", new WrapperSyntax(Set.of(), 0)),
            Map.entry("chrt", new WrapperSyntax(Set.of(), 1)),
            Map.entry("time", new WrapperSyntax(Set.of("-f", "-o", "--format", "--output"), 0)),
            Map.entry("numactl", new WrapperSyntax(Set.of("-C", "-N", "-m", "-p", "-i", "-P"), 0)),
            Map.entry("ld.so", new WrapperSyntax(Set.of("--preload", "--library-path", "--audit", "--argv0", "--inhibit-rpath",
                    "--glibc-hwcaps-prepend", "--glibc-hwcaps-mask"), 0)));

    /**
     * The command a wrapper runs: where it starts ({@code at}, -1 where it names none), and the environment and
     * working directory it runs in (env's assignments, {@code -i}, {@code -u}, {@code -C}; the loader's
     * {@code --library-path} and {@code --preload}), which decide the program a bare name is and the libraries it loads.
     */
    private record Wrapped(int at, Map<String, String> environment, Path workingDirectory) {}

    /** Architectures {@code setarch} takes as its optional first word (util-linux 2.33 and later). */
    private static final Pattern ARCHITECTURE = Pattern.compile("i[3-6]86|athlon|x86_64|linux(32|64)|uname26|aarch64|arm(64|v[0-9]+[a-z]*|h|b)?"
            + "|ppc(32|64)?(le)?|s390x?|sparc(32|64|32bash)?|mips(32|64)?|ia64|parisc(32|64)?|alpha(ev[0-9]+)?|riscv(32|64)|loongarch(32|64)?|m68k");

    /**
     * Where the command a wrapper runs starts: past the wrapper's options (and their values), its positional words (a
     * timeout's duration, a CPU mask, setarch's architecture where one is given) and, for env, its assignments. An
     * option's value is never the reference. {@code env -S} carries a command in one word: an error, as code in a flag is.
     */
    private static Wrapped wrappedCommand(Path exe, List<String> reference, Path workingDirectory, Map<String, String> environment) {
        String key = syntaxKey(String.valueOf(real(exe).getFileName()));
        if (!WRAPPERS.containsKey(key)) {
            key = syntaxKey(String.valueOf(exe.getFileName()));
        }
        WrapperSyntax syntax = WRAPPERS.getOrDefault(key, new WrapperSyntax(Set.of(), 0));
        int positionals = syntax.positionals();
        // setarch called by an architecture's name (linux64, i386: links to it) takes no architecture word.
        boolean architectureWord = key.equals("setarch") && String.valueOf(exe.getFileName()).equals("setarch");
        Map<String, String> variables = new java.util.LinkedHashMap<>(environment);
        Path directory = workingDirectory;
        for (int i = 1; i < reference.size(); i++) {
            String word = reference.get(i);
            if (word == null) {
                continue;
            }
            if (key.equals("env") && splitString(word)) {
                throw PatchgradeException.badParameter(Setting.REFERENCE, "runs " + exe + " with its command inside " + word
                        + ": a command in one word could neither be frozen nor hidden from the candidate. Give the program and its "
                        + "arguments as words of their own");
            }
            if (word.equals("--")) {
                return new Wrapped(i + 1 < reference.size() ? i + 1 : -1, variables, directory);
            }
            if (key.equals("env") && word.startsWith("--") && word.length() > 2) {
                // getopt_long takes any unique prefix (--ch=dir is --chdir, --s=... --split-string: red team 19)
                String spelled = word.contains("=") ? word.substring(0, word.indexOf('=')) : word;
                String full = ENV_LONG_OPTIONS.stream().filter(option -> option.startsWith(spelled)).count() == 1
                        ? ENV_LONG_OPTIONS.stream().filter(option -> option.startsWith(spelled)).findFirst().orElseThrow() : spelled;
                word = full + (word.contains("=") ? word.substring(word.indexOf('=')) : "");
                if (full.equals("--split-string")) {
                    throw PatchgradeException.badParameter(Setting.REFERENCE, "runs " + exe + " with its command inside " + reference.get(i)
                            + ": a command in one word could neither be frozen nor hidden from the candidate. Give the program and its "
                            + "arguments as words of their own");
                }
            }
            if (word.startsWith("-") && word.length() > 1) {
                String flag = word.contains("=") && word.startsWith("--") ? word.substring(0, word.indexOf('=')) : word;
                String value = word.contains("=") && word.startsWith("--") ? word.substring(word.indexOf('=') + 1) : null;
                if (syntax.valued().contains(word) && i + 1 < reference.size()) {
                    value = reference.get(++i);
                } else if (value == null && key.equals("env") && word.matches("-[iv0]*[uC].+")) {
                    // env's -u and -C with their value attached, in a cluster (-iuHOME, -C/dir)
                    int at = word.indexOf('u') > 0 && (word.indexOf('C') < 0 || word.indexOf('u') < word.indexOf('C')) ? word.indexOf('u')
                            : word.indexOf('C');
                    flag = "-" + word.charAt(at);
                    value = word.substring(at + 1);
                }
                if (key.equals("env") && (word.equals("-i") || word.equals("--ignore-environment") || word.matches("-[iv0]*i[iv0]*"))) {
                    variables.clear();
                }
                if (value != null) {
                    if (key.equals("env") && (flag.equals("-u") || flag.equals("--unset"))) {
                        variables.remove(value);
                    } else if (key.equals("env") && (flag.equals("-C") || flag.equals("--chdir"))) {
                        // The reference would run elsewhere than its candidate: what it names there, and the directory
                        // it must not take, are another directory's.
                        throw PatchgradeException.badParameter(Setting.REFERENCE, "runs " + exe + " " + word + ": a reference that "
                                + "changes its own working directory could neither be frozen nor hidden as named. Set the execution's "
                                + "<workingDirectory> instead");
                    } else if (key.equals("ld.so") && flag.equals("--library-path")) {
                        variables.put("LD_LIBRARY_PATH", value);
                    } else if (key.equals("ld.so") && flag.equals("--preload")) {
                        variables.put("LD_PRELOAD", value);
                    }
                }
                continue;
            }
            if (key.equals("env") && word.indexOf('=') > 0) {
                variables.put(word.substring(0, word.indexOf('=')), word.substring(word.indexOf('=') + 1));
                continue;
            }
            if (architectureWord) {
                architectureWord = false;
                if (ARCHITECTURE.matcher(word).matches()) {
                    continue;
                }
            }
            if (positionals > 0) {
                positionals--;
                continue;
            }
            return new Wrapped(i, variables, directory);
        }
        return new Wrapped(-1, variables, directory);
    }

    /** GNU env's long options, which it takes by any unique prefix. */
    private static final List<String> ENV_LONG_OPTIONS = List.of("--ignore-environment", "--null", "--unset", "--chdir", "--split-string",
            "--block-signal", "--default-signal", "--ignore-signal", "--list-signal-handling", "--debug", "--help", "--version");

    /** env's -S (--split-string): alone, attached or in a cluster of flags that take no value before it ({@code -iS...}). */
    private static boolean splitString(String word) {
        if (word.startsWith("--")) {
            return word.startsWith("--split-string") || word.startsWith("--sp");
        }
        for (int at = 1; word.startsWith("-") && at < word.length(); at++) {
            char flag = word.charAt(at);
            if (flag == 'S') {
                return true;
            }
            if (flag == 'u' || flag == 'C' || !Character.isLetterOrDigit(flag)) {
                return false;
            }
        }
        return false;
    }

    /** The dynamic loader goes by many names (ld-linux-x86-64.so.2, ld64.so.1): one syntax. */
    private static String syntaxKey(String name) {
        return name.startsWith("ld-linux") || name.startsWith("ld64.so") || name.equals("ld.so") ? "ld.so" : name;
    }

    /**
     * What an interpreter runs of the reference's: its script, the files its flags load, and the directories it finds
     * modules in (by a flag or its environment).
     */
    private record Interpreted(Path script, List<Path> loaded, List<Path> moduleDirectories) {}

    /** The entries of a table whose family pattern matches the program's name or the name of the program it links to. */
    private static <T> List<T> ofFamily(List<Map.Entry<Pattern, T>> table, Path exe) {
        String name = String.valueOf(exe.getFileName());
        String realName = String.valueOf(real(exe).getFileName());
        return table.stream().filter(entry -> entry.getKey().matcher(name).matches() || entry.getKey().matcher(realName).matches())
                .map(Map.Entry::getValue).toList();
    }

    /**
     * What an option word of an interpreter does: {@link #CODE} where it carries code or names a module to run, alone,
     * attached ({@code -cprint(1)}, {@code --eval=...}) or in a cluster ({@code -euc}); the path or module it loads for a
     * load flag ({@code -Ilib}, {@code --require=x}, {@code -wMRef}; "" where the value is the next word); null otherwise.
     * A cluster is read letter by letter up to the first code or load flag, as the interpreters read it.
     */
    private static String optionEffect(String word, Set<String> codeFlags, Set<String> loadFlags) {
        if (word.startsWith("--")) {
            int equals = word.indexOf('=');
            String flag = equals < 0 ? word : word.substring(0, equals);
            if (codeFlags.contains(flag)) {
                return CODE;
            }
            return loadFlags.contains(flag) ? (equals < 0 ? "" : word.substring(equals + 1)) : null;
        }
        for (int at = 1; at < word.length() && Character.isLetter(word.charAt(at)); at++) {
            String flag = "-" + word.charAt(at);
            if (codeFlags.contains(flag)) {
                return CODE;
            }
            if (loadFlags.contains(flag)) {
                return word.substring(at + 1);
            }
        }
        return null;
    }

    /** {@link #optionEffect}'s answer for code in a flag: no path or module is spelled so. */
    private static final String CODE = "\0code";

    /** The interpreter's script: its first word that is no option, which must name a file, with no code in a flag before it. */
    private static Interpreted script(Path exe, List<String> reference, Path workingDirectory, Map<String, String> environment) {
        Set<String> codeFlags = new java.util.HashSet<>();
        ofFamily(CODE_FLAGS, exe).forEach(codeFlags::addAll);
        Set<String> loadFlags = new java.util.HashSet<>();
        ofFamily(LOAD_FLAGS, exe).forEach(loadFlags::addAll);
        List<Path> loaded = new ArrayList<>();
        List<Path> moduleDirectories = new ArrayList<>();
        for (List<String> variables : ofFamily(LOAD_PATHS, exe)) {
            for (String variable : variables) {
                for (String entry : environment.getOrDefault(variable, "").split("[:;]")) {
                    // lua's templates (dir/?.lua) name the directory before the first '?'
                    String path = entry.contains("?") ? entry.substring(0, entry.indexOf('?')) : entry;
                    loadedPath(path, workingDirectory, loaded, moduleDirectories);
                }
            }
        }
        List<String> words = new ArrayList<>(reference.subList(0, Math.min(1, reference.size())));
        for (List<String> variables : ofFamily(OPTION_VARIABLES, exe)) {
            for (String variable : variables) {
                // The options a variable carries come before the command's own.
                words.addAll(List.of(environment.getOrDefault(variable, "").strip().split("\\s+")).stream().filter(w -> !w.isEmpty()).toList());
            }
        }
        int fromVariables = words.size() - 1;
        words.addAll(reference.subList(Math.min(1, reference.size()), reference.size()));
        reference = words;
        String fix = " Name its script as the first word after the interpreter (e.g. <arg>" + exe + "</arg><arg>frozen/ref.sh</arg>), "
                + "in a directory of its own";
        for (int i = 1; i < reference.size(); i++) {
            String word = reference.get(i);
            if (word == null) {
                continue;
            }
            String value = word.startsWith("-") ? optionEffect(word, codeFlags, loadFlags) : null;
            if (CODE.equals(value)) {
                throw PatchgradeException.badParameter(Setting.REFERENCE, "runs " + exe + ", an interpreter, with its code in " + word
                        + ": code named by no file of its own could neither be frozen nor hidden from the candidate." + fix);
            }
            if (value != null) {
                if (value.isEmpty() && i + 1 < reference.size()) {
                    value = reference.get(++i);
                }
                // A module named by no path (-MRef, -rjson) is found in the module directories, or the system's;
                // perl's -Mlib=a,b names directories (red team 19).
                if (value.startsWith("lib=")) {
                    for (String directory : value.substring(4).split(",")) {
                        loadedPath(directory, workingDirectory, loaded, moduleDirectories);
                    }
                }
                loadedPath(value, workingDirectory, loaded, moduleDirectories);
                continue;
            }
            if (word.startsWith("-") && !word.equals("-") || i <= fromVariables) {
                continue;
            }
            List<Path> file = namedFiles(List.of("", word), workingDirectory);
            if (file.isEmpty() || !word.equals(word.strip()) || word.startsWith("@") || word.contains("=")) {
                throw PatchgradeException.badParameter(Setting.REFERENCE, "runs " + exe + ", an interpreter, and its first word that is no "
                        + "option, \"" + word + "\", names no file of its own: its code could neither be frozen nor hidden from the candidate."
                        + fix);
            }
            return new Interpreted(file.get(0), List.copyOf(loaded), List.copyOf(moduleDirectories));
        }
        throw PatchgradeException.badParameter(Setting.REFERENCE, "runs " + exe + ", an interpreter, and names no file of its own: its code "
                + "could neither be frozen nor hidden from the candidate." + fix);
    }

    /** Files a load flag or variable names go to {@code loaded}, directories to {@code moduleDirectories}; a bare module name nowhere. */
    private static void loadedPath(String value, Path workingDirectory, List<Path> loaded, List<Path> moduleDirectories) {
        if (value == null || value.isBlank() || value.indexOf('\0') >= 0) {
            return;
        }
        Path path;
        try {
            path = workingDirectory.resolve(value).toAbsolutePath().normalize();
        } catch (java.nio.file.InvalidPathException e) {
            return;
        }
        if (Files.isRegularFile(path) && !system(path) && !loaded.contains(path)) {
            loaded.add(path);
        } else if (Files.isDirectory(path) && !moduleDirectories.contains(path)) {
            moduleDirectories.add(path);
        }
    }

    /** Where a path really is, past links; the path itself (absolute) where it is not there. */
    public static Path real(Path path) {
        Path absolute = path.toAbsolutePath().normalize();
        try {
            return absolute.toRealPath();
        } catch (IOException e) {
            return absolute;
        }
    }

    /**
     * The words after the first that name an existing regular file outside the system's directories, absolute: the
     * word itself, the value of an option spelled {@code --name=file}, or a response file {@code @file}.
     */
    public static List<Path> namedFiles(List<String> command, Path workingDirectory) {
        return named(command, workingDirectory, word -> {
            List<String> spellings = new ArrayList<>(List.of(word));
            int equals = word.indexOf('=');
            if (equals > 0 && equals < word.length() - 1) {
                spellings.add(word.substring(equals + 1));
            }
            if (word.startsWith("@") && word.length() > 1) {
                spellings.add(word.substring(1));
            }
            return spellings;
        }, file -> Files.isRegularFile(file));
    }

    /**
     * The existing paths outside the system that the words after the first spell, each in the ways {@code spellingsOf}
     * reads a word, of the kind {@code wanted} accepts; absolute, each once.
     */
    private static List<Path> named(List<String> command, Path workingDirectory, java.util.function.Function<String, List<String>> spellingsOf,
            java.util.function.Predicate<Path> wanted) {
        Set<Path> found = new LinkedHashSet<>();
        for (int i = 1; command != null && i < command.size(); i++) {
            String word = command.get(i);
            if (word == null || word.isEmpty() || word.indexOf('\0') >= 0) {
                continue;
            }
            for (String spelling : spellingsOf.apply(word)) {
                try {
                    Path path = workingDirectory.resolve(spelling).toAbsolutePath().normalize();
                    if (!spelling.isEmpty() && wanted.test(path) && !system(path)) {
                        found.add(path);
                    }
                } catch (java.nio.file.InvalidPathException e) {
                    // no path
                }
            }
        }
        return List.copyOf(found);
    }

    /** The absolute program a script's {@code #!} line names, or null. */
    private static Path shebangInterpreter(Path script) {
        try (java.io.InputStream in = Files.newInputStream(script)) {
            byte[] head = in.readNBytes(256);
            if (head.length < 3 || head[0] != '#' || head[1] != '!') {
                return null;
            }
            String line = new String(head, 2, head.length - 2, java.nio.charset.StandardCharsets.ISO_8859_1).split("\n", 2)[0].strip();
            String program = line.split("\\s+", 2)[0];
            return program.startsWith("/") && Files.isRegularFile(Path.of(program)) ? Path.of(program) : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The library as its search directory holds it: the loader maps the copy of a glibc-hwcaps or platform
     * subdirectory ({@code lib/glibc-hwcaps/x86-64-v2/libref.so}) where the directory it searched holds the plain one
     * too (red team 19): that directory's file stands for it, so its directory is hidden.
     */
    private static Path searchDirectoryOf(Path library) {
        Path at = library.getParent();
        for (int up = 0; at != null && at.getParent() != null && up < 2; up++) {
            at = at.getParent();
            if (Files.exists(at.resolve(library.getFileName()))) {
                return at.resolve(library.getFileName());
            }
        }
        return library;
    }

    private static void addOwn(List<Path> directories, Path directory) {
        if (directory != null && !directories.contains(directory)) {
            directories.add(directory);
        }
    }

    /** A directory the command or its environment names: the reference's where it is neither the system's, nor shared, nor holds what the build needs. */
    private static void addOwnTree(List<Path> directories, Path directory, List<Path> held) {
        Path real = real(directory);
        if (Files.isDirectory(real) && real.getParent() != null && !system(real) && !SHARED_PREFIXES.contains(real) && holdsNone(real, held)) {
            addOwn(directories, real);
        }
    }

    /** The words after the first that name an existing directory outside the system's (a data directory the reference reads). */
    public static List<Path> namedDirectories(List<String> command, Path workingDirectory) {
        // the word, an option's or a key's value (--dir=x, data=x), a short option's attached value (-Dx)
        return named(command, workingDirectory, word -> {
            List<String> spellings = new ArrayList<>(List.of(word));
            if (word.indexOf('=') > 0) {
                spellings.add(word.substring(word.indexOf('=') + 1));
            }
            spellings.addAll(attachedValue(word));
            return spellings;
        }, directory -> Files.isDirectory(directory));
    }

    /** Files named inside a short option ({@code -Tdata/answers.txt}): hidden like the words, not frozen (an output file may be named so). */
    public static List<Path> attachedFiles(List<String> command, Path workingDirectory) {
        return named(command, workingDirectory, ReferenceFiles::attachedValue, file -> Files.isRegularFile(file));
    }

    /** What a short option carries attached ({@code -Tdata} carries {@code data}): none for a long option or a bare flag. */
    private static List<String> attachedValue(String word) {
        return word.startsWith("-") && !word.startsWith("--") && word.length() > 2 ? List.of(word.substring(2)) : List.of();
    }

    /** Whether a path lies in a directory of the distribution's own packages. */
    public static boolean system(Path path) {
        Path absolute = path.toAbsolutePath().normalize();
        return SYSTEM.stream().anyMatch(absolute::startsWith);
    }

    /**
     * The directory of the reference's own file (its real location, past a symbolic link) where it is the
     * reference's own: not a system directory, and holding none of the project, the working directory and
     * {@code keep}.
     */
    private static Path ownDirectory(Path root, Path workingDirectory, List<Path> keep, Path projectDirectory) {
        Path directory;
        try {
            directory = root.toRealPath().getParent();
        } catch (IOException e) {
            directory = root.getParent();
        }
        if (directory == null || system(directory) || directory.getParent() == null) {
            return null;
        }
        List<Path> held = new ArrayList<>(List.of(projectDirectory, workingDirectory));
        held.addAll(keep);
        // An installed reference (prefix/bin/ref) keeps its code beside that directory, in prefix/lib ($ORIGIN/../lib,
        // CMake's install layout: red team 16): its prefix is its own where nothing the build needs lies in it.
        Path prefix = directory.getParent();
        String name = String.valueOf(directory.getFileName());
        if ((name.equals("bin") || name.equals("sbin") || name.equals("libexec")) && prefix.getParent() != null
                && SHARED_PREFIXES.stream().noneMatch(prefix::equals) && !system(prefix) && holdsNone(prefix, held)) {
            return prefix;
        }
        return holdsNone(directory, held) ? directory : null;
    }

    /**
     * The directories an executable's RUNPATH (or RPATH) names outside the system, each widened to the tree it shares
     * with the executable's own directory, where that tree is neither shared (/usr/local, /opt) nor holds the
     * project, the working directory or {@code keep}.
     */
    private static List<Path> searchPathTrees(Path exe, Path workingDirectory, List<Path> keep, Path projectDirectory) {
        Path real = real(exe);
        Path own = real.getParent();
        if (own == null) {
            return List.of();
        }
        List<Path> held = new ArrayList<>(List.of(projectDirectory, workingDirectory));
        held.addAll(keep);
        List<Path> trees = new ArrayList<>();
        for (String entry : ElfSearchPath.of(real)) {
            String expanded = entry.replace("${ORIGIN}", own.toString()).replace("$ORIGIN", own.toString());
            if (!expanded.startsWith("/")) {
                continue;
            }
            Path directory = Path.of(expanded).normalize();
            Path tree = directory;
            while (tree != null && !own.startsWith(tree)) {
                tree = tree.getParent();
            }
            if (tree == null || tree.getParent() == null || system(directory) || system(tree) || SHARED_PREFIXES.contains(tree)
                    || !holdsNone(tree, held) || trees.contains(tree)) {
                continue;
            }
            trees.add(tree);
        }
        return trees;
    }

    private static boolean holdsNone(Path directory, List<Path> held) {
        for (Path path : held) {
            Path absolute = path.toAbsolutePath().normalize();
            Path real = absolute;
            try {
                real = absolute.toRealPath();
            } catch (IOException e) {
                // not there: its spelled path is all there is to compare
            }
            if (absolute.startsWith(directory) || real.startsWith(directory)) {
                return false;
            }
        }
        return true;
    }

    /**
     * What every candidate of the module must not see: the reference's own file (and where a symbolic link leads),
     * the other files its command names, and the executable unless it is the system's own running a file of the
     * reference's. Not its directory: another goal's candidate may live there.
     */
    public List<Path> hiddenFromModule() {
        Set<Path> hidden = new LinkedHashSet<>();
        for (Path file : frozen) {
            // The system's interpreters and wrappers run the reference: frozen, never hidden (every candidate's system()
            // needs /bin/sh). Anything else the command names or runs is the reference's.
            if (file.equals(root) || !(runner(file) && system(real(file)))) {
                hidden.add(file);
            }
        }
        try {
            hidden.add(root.toRealPath());
        } catch (IOException e) {
            // gone: nothing to hide where it led
        }
        for (Path file : List.copyOf(hidden)) {
            hidden.addAll(otherNames(file));
        }
        return List.copyOf(hidden);
    }

    /**
     * The other names of a file in its own directory: hard links ({@code /usr/bin/bunzip2} is {@code bzip2}: red team
     * 16). Hiding a name covers that name only.
     */
    static List<Path> otherNames(Path file) {
        Path directory = file.getParent();
        if (directory == null || !Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return List.of();
        }
        List<Path> names = new ArrayList<>();
        try {
            Object key = Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class, java.nio.file.LinkOption.NOFOLLOW_LINKS).fileKey();
            if (key == null || ((Number) Files.getAttribute(file, "unix:nlink", java.nio.file.LinkOption.NOFOLLOW_LINKS)).intValue() < 2) {
                return List.of();
            }
            try (Stream<Path> entries = Files.list(directory)) {
                for (Path entry : (Iterable<Path>) entries::iterator) {
                    if (!entry.equals(file) && key.equals(Files.readAttributes(entry, java.nio.file.attribute.BasicFileAttributes.class,
                            java.nio.file.LinkOption.NOFOLLOW_LINKS).fileKey())) {
                        names.add(entry);
                    }
                }
            }
        } catch (IOException | UnsupportedOperationException e) {
            // unreadable: the name itself is still hidden
        }
        return names;
    }

    /**
     * What this grade's candidate must not see: {@link #hiddenFromModule()} and the reference's directory. A file
     * the candidate runs itself ({@code keep}) stays visible.
     */
    public List<Path> hidden(List<Path> keep) {
        Set<Path> hidden = new LinkedHashSet<>(hiddenFromModule());
        hidden.addAll(directories);
        for (Path own : keep) {
            hidden.remove(own.toAbsolutePath().normalize());
        }
        return List.copyOf(hidden);
    }
}
