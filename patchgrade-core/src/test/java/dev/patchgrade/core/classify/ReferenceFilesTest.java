package dev.patchgrade.core.classify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.patchgrade.core.PatchgradeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReferenceFilesTest {
    @TempDir
    Path project;

    @TempDir
    Path elsewhere;

    private Path file(Path base, String relative) throws Exception {
        Path file = base.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, relative);
        return file;
    }

    /**
     * Red team 13: an interpreted reference froze and hid /bin/sh, and left its script readable and unfrozen. Red
     * team 14: a file the script sources beside it stayed readable. The script and every other file the command
     * names are frozen and hidden, with the script's directory; a file the candidate names too stays visible to it.
     */
    @Test
    void anInterpretedReferenceIsItsScriptAndTheDirectoryBesideIt() throws Exception {
        Path script = file(project, "frozen/ref.sh");
        file(project, "frozen/impl.sh");
        Path data = file(project, "data/dict.txt");
        ReferenceFiles files = ReferenceFiles.of(Path.of("/bin/sh"), List.of("/bin/sh", "frozen/ref.sh", "data/dict.txt"), project, project);
        assertThat(files.frozen()).containsExactly(Path.of("/bin/sh"), script, data);
        assertThat(files.hiddenFromModule()).containsExactly(script, data);
        assertThat(files.hidden(List.of(Path.of("/bin/sh"), data))).as("red team 18: the directory of every file an interpreter is given")
                .containsExactly(script, script.getParent(), data.getParent());
        ReferenceFiles sharing = ReferenceFiles.of(Path.of("/bin/sh"), List.of("/bin/sh", "frozen/ref.sh", "data/dict.txt"), project,
                List.of(Path.of("/bin/sh"), data), project);
        assertThat(sharing.hidden(List.of(Path.of("/bin/sh"), data))).as("unless the candidate is given a file there too")
                .containsExactly(script, script.getParent());
    }

    /**
     * Red team 15: a wrapper (timeout, stdbuf, the dynamic loader) or an interpreter outside /bin and /usr/bin (a
     * virtualenv's python3, a link to the system's) was taken for the reference, and the script it runs was neither
     * frozen nor hidden. The distribution's own program, where it really is, runs the first file named.
     */
    @Test
    void aWrapperOrALinkedInterpreterRunsTheReferencesScript() throws Exception {
        Path script = file(project, "frozen/ref.sh");
        ReferenceFiles wrapped = ReferenceFiles.of(Path.of("/usr/bin/timeout"), List.of("/usr/bin/timeout", "10", "frozen/ref.sh"), project, project);
        assertThat(wrapped.frozen()).containsExactly(Path.of("/usr/bin/timeout"), script);
        assertThat(wrapped.hiddenFromModule()).containsExactly(script);
        Path venv = project.resolve(".venv/bin/python3");
        Files.createDirectories(venv.getParent());
        Files.createSymbolicLink(venv, Path.of("/bin/sh"));
        ReferenceFiles linked = ReferenceFiles.of(venv, List.of(".venv/bin/python3", "frozen/ref.sh"), project, project);
        assertThat(linked.hiddenFromModule()).as("the link's program is the system's").containsExactly(script);
        assertThat(ReferenceFiles.interpreter(venv)).isTrue();
    }

    /** Red team 14: code named inside -c (or --script=x) is no file of the command: an error, never an unfrozen reference. */
    /** A file named inside a word (an option's value, a response file) is the reference's as much as a word of its own. */
    @Test
    void aFileNamedAsAnOptionsValueOrAResponseFileIsTheReferences() throws Exception {
        Path script = file(project, "frozen/ref.sh");
        Path arguments = file(project, "frozen/args.txt");
        Path tool = file(project, "tools/run");
        ReferenceFiles files = ReferenceFiles.of(tool, List.of(tool.toString(), "--script=frozen/ref.sh", "@frozen/args.txt", "--level=3", "@"),
                project, project);
        assertThat(files.frozen()).containsExactly(tool, script, arguments);
        assertThat(files.hiddenFromModule()).containsExactly(tool, script, arguments);
        assertThat(ReferenceFiles.namedFiles(List.of("cmd", "frozen/ref.sh", "--in=frozen/ref.sh"), project)).as("each file once")
                .containsExactly(script);
    }

    @Test
    void anInterpreterThatNamesNoFileOfItsOwnIsAnError() throws Exception {
        assertThatThrownBy(() -> ReferenceFiles.of(Path.of("/bin/sh"), List.of("/bin/sh", "-c", ". frozen/ref.sh", "sh"), project, project))
                .isInstanceOf(PatchgradeException.class).hasMessageContaining("with its code in -c");
        assertThatThrownBy(() -> ReferenceFiles.of(Path.of("/bin/sh"), List.of("/bin/sh", "-euc", ". frozen/ref.sh"), project, project))
                .as("-c among other flags").hasMessageContaining("with its code in -euc");
        assertThatThrownBy(() -> ReferenceFiles.of(Path.of("/usr/bin/python3"), List.of("/usr/bin/python3", "-mrefbilling"), project, project))
                .as("attached").hasMessageContaining("with its code in -mrefbilling");
        file(project, "data/rates.csv");
        assertThatThrownBy(() -> ReferenceFiles.of(Path.of("/usr/bin/python3"), List.of("/usr/bin/python3", "-W", "ignore", "data/rates.csv"),
                project, project)).as("the first word that is no option must be the script").hasMessageContaining("\"ignore\", names no file");
        assertThatThrownBy(() -> ReferenceFiles.of(Path.of("/bin/sh"), List.of("/bin/sh"), project, project)).hasMessageContaining("names no file of its own");
        Path script = file(project, "frozen/ref.sh");
        assertThat(ReferenceFiles.of(Path.of("/bin/bash"), List.of("/bin/bash", "-eu", "frozen/ref.sh", "data/rates.csv"), project, project).root())
                .as("-e is no code flag of a shell").isEqualTo(script);
    }

    /** Red team 13 and 14: what lies beside the reference (a library, its data) is hidden, wherever the reference is. */
    @Test
    void theCandidateDoesNotSeeTheDirectoryOfTheReference() throws Exception {
        Path reference = file(project, "frozen/bin/ref");
        Path candidate = file(project, "target/cand");
        ReferenceFiles files = ReferenceFiles.of(reference, List.of(reference.toString()), project, List.of(candidate), project);
        assertThat(files.hidden(List.of(candidate))).as("an installed reference: its whole prefix (red team 16: $ORIGIN/../lib)")
                .containsExactly(reference, project.resolve("frozen"));
        Path outside = file(elsewhere, "opt/ref/bin/ref");
        assertThat(ReferenceFiles.of(outside, List.of(outside.toString()), project, List.of(candidate), project).hidden(List.of(candidate)))
                .as("outside the project too").containsExactly(outside, elsewhere.resolve("opt/ref"));
        Path flat = file(project, "reference/ref");
        assertThat(ReferenceFiles.of(flat, List.of(flat.toString()), project, List.of(candidate), project).hidden(List.of(candidate)))
                .as("a directory not named bin is the reference's own").containsExactly(flat, flat.getParent());
        Path besideTools = file(project, "tools/bin/ref");
        Path tool = file(project, "tools/lib/helper");
        assertThat(ReferenceFiles.of(besideTools, List.of(besideTools.toString()), project, List.of(tool), project).hidden(List.of(tool)))
                .as("a prefix that holds what the candidate runs: only the reference's own directory").containsExactly(besideTools, besideTools.getParent());
        Path besideCandidate = file(project, "frozen/bin/cand");
        assertThat(ReferenceFiles.of(reference, List.of("ref"), project, List.of(besideCandidate), project).hidden(List.of(besideCandidate)))
                .as("a candidate in the same directory").containsExactly(reference);
        assertThat(ReferenceFiles.of(reference, List.of("ref"), project.resolve("frozen/bin/run"), List.of(candidate), project).hidden(List.of(candidate)))
                .as("the working directory below it").containsExactly(reference);
        Path inProject = file(project, "ref");
        assertThat(ReferenceFiles.of(inProject, List.of("./ref"), project, List.of(candidate), project).hidden(List.of(candidate)))
                .as("a reference in the project directory itself").containsExactly(inProject);
        assertThat(ReferenceFiles.of(reference, List.of("ref"), project, List.of(reference), project).hidden(List.of(reference)))
                .as("the candidate is the reference binary").isEmpty();
    }

    /** Red team 14: a symbolic link hid its own directory and left the real one, with the library beside the binary, readable. */
    @Test
    void aReferenceReachedThroughALinkHidesWhereItLeads() throws Exception {
        Path real = file(project, "build/bin/ref");
        Path link = project.resolve("frozen/ref");
        Files.createDirectories(link.getParent());
        Files.createSymbolicLink(link, real);
        Path candidate = file(project, "target/cand");
        assertThat(ReferenceFiles.of(link, List.of("frozen/ref"), project, List.of(candidate), project).hidden(List.of(candidate)))
                .contains(link, real.toRealPath(), real.toRealPath().getParent().getParent());
    }

    /**
     * Red team 14: a reference under /usr/local is what a user installed there: it stays hidden. Red team 16: an
     * interpreter is one by its name wherever it is (its script is the reference's code), a program of the system is
     * a runner only where it wraps a command, and any other program of the system is the reference itself.
     */
    @Test
    void interpretersAnywhereAndTheSystemsWrappersRunTheReference() throws Exception {
        assertThat(ReferenceFiles.interpreter(Path.of("/bin/sh"))).isTrue();
        assertThat(ReferenceFiles.interpreter(Path.of("/usr/bin/python3.11"))).isTrue();
        assertThat(ReferenceFiles.interpreter(Path.of("/usr/bin/sort"))).as("a tool of the system, not an interpreter").isFalse();
        assertThat(ReferenceFiles.interpreter(Path.of("/usr/local/bin/python3"))).isTrue();
        assertThat(ReferenceFiles.runner(Path.of("/usr/bin/timeout"))).isTrue();
        assertThat(ReferenceFiles.runner(Path.of("/usr/local/bin/timeout"))).as("a wrapper only where the system keeps it").isFalse();
        assertThat(ReferenceFiles.runner(Path.of("/usr/bin/sort"))).isFalse();
        assertThat(ReferenceFiles.system(Path.of("/usr/local/bin/ref"))).isFalse();
        assertThat(ReferenceFiles.system(Path.of("/opt/ref/bin/tool"))).isFalse();
        assertThat(ReferenceFiles.system(Path.of("/bin/../bin/sh"))).isTrue();
        ReferenceFiles sort = ReferenceFiles.of(Path.of("/usr/bin/sort"), List.of("/usr/bin/sort"), project, project);
        assertThat(sort.hiddenFromModule()).as("a reference that is a tool of the system is hidden as before").contains(Path.of("/usr/bin/sort"));
        Path words = file(project, "data/words.txt");
        ReferenceFiles sorting = ReferenceFiles.of(Path.of("/usr/bin/sort"), List.of("/usr/bin/sort", "-r", "data/words.txt"), project, project);
        assertThat(sorting.root()).as("naming its input makes no runner of it").isEqualTo(Path.of("/usr/bin/sort"));
        assertThat(sorting.hiddenFromModule()).contains(Path.of("/usr/bin/sort"), words);
        ReferenceFiles wrapped = ReferenceFiles.of(Path.of("/usr/bin/timeout"), List.of("/usr/bin/timeout", "-k", "5", "10s", "sort", "-r"),
                project, project);
        assertThat(wrapped.root()).as("a wrapper naming a program by its bare name runs that program").isEqualTo(Path.of("/usr/bin/sort"));
        assertThat(wrapped.hidden(List.of())).contains(Path.of("/usr/bin/sort")).doesNotContain(Path.of("/usr/bin/timeout"));
        Path local = project.resolve("local/bin/python3");
        Files.createDirectories(local.getParent());
        Files.copy(Path.of("/bin/sh").toRealPath(), local);
        Path script = file(project, "frozen/ref.py");
        ReferenceFiles interpreted = ReferenceFiles.of(local, List.of(local.toString(), "frozen/ref.py"), project, project);
        assertThat(interpreted.root()).isEqualTo(script);
        assertThat(interpreted.hidden(List.of())).as("an interpreter of no distribution is hidden, and the script's directory")
                .contains(local, script, script.getParent());
    }

    /** Red team 16: bzip2 is also bunzip2 and bzcat, hard links in its directory: hiding one name hid one of three. */
    @Test
    void aHiddenFilesHardLinksAreHiddenWithIt() throws Exception {
        Path reference = file(project, "frozen/ref");
        Path twin = project.resolve("frozen/ref-twin");
        Files.createLink(twin, reference);
        assertThat(ReferenceFiles.of(reference, List.of(reference.toString()), project, project).hiddenFromModule()).contains(reference, twin);
    }

    /**
     * Session 14's open item: flags that load more of an interpreter's code (perl -I and -M, ruby -r, node --require)
     * and the variables that name its module directories left that code visible beside a hidden script.
     */
    @Test
    void whatAnInterpretersFlagsAndVariablesLoadIsTheReferences() throws Exception {
        Path script = file(project, "frozen/script/ref.pl");
        Path module = file(project, "modlib/Ref.pm");
        Path candidate = file(project, "target/cand");
        ReferenceFiles perl = ReferenceFiles.of(Path.of("/usr/bin/perl"), List.of("/usr/bin/perl", "-I", "modlib", "-MRef", "-Mstrict",
                "frozen/script/ref.pl"), project, List.of(candidate), project);
        assertThat(perl.root()).as("-I's value is no script").isEqualTo(script);
        assertThat(perl.hidden(List.of(candidate))).contains(script, script.getParent(), module.getParent());
        ReferenceFiles clustered = ReferenceFiles.of(Path.of("/usr/bin/perl"), List.of("/usr/bin/perl", "-wImodlib", "frozen/script/ref.pl"),
                project, List.of(candidate), project);
        assertThat(clustered.hidden(List.of(candidate))).as("-I at the end of a cluster").contains(module.getParent());

        Path hook = file(project, "hooks/register.js");
        Path js = file(project, "frozen/js/ref.js");
        ReferenceFiles node = ReferenceFiles.of(Path.of("/usr/bin/node"), List.of("/usr/bin/node", "--require=./hooks/register.js", "--import",
                "hooks/register.js", "frozen/js/ref.js"), project, List.of(candidate), project);
        assertThat(node.root()).isEqualTo(js);
        assertThat(node.frozen()).as("a file a flag loads is frozen with the script").contains(hook, js);
        assertThat(node.hidden(List.of(candidate))).contains(hook, hook.getParent(), js.getParent());

        Path rubyLib = file(project, "rblib/ref/core.rb");
        Path rb = file(project, "frozen/rb/ref.rb");
        ReferenceFiles ruby = ReferenceFiles.of(Path.of("/usr/bin/ruby"), List.of("/usr/bin/ruby", "-r", "json", "-Irblib", rb.toString()),
                project, List.of(candidate), project);
        assertThat(ruby.hidden(List.of(candidate))).as("a bare module name hides nothing; -I's directory is hidden")
                .contains(rubyLib.getParent().getParent(), rb.getParent());

        Path pythonLib = file(elsewhere, "pylib/refcore.py");
        Path py = file(project, "frozen/py/ref.py");
        ReferenceFiles python = ReferenceFiles.of(Path.of("/usr/bin/python3"), List.of("/usr/bin/python3", "frozen/py/ref.py"), project,
                List.of(candidate), project, java.util.Map.of("PYTHONPATH", pythonLib.getParent() + ":" + project + ":/usr/lib/python3/dist-packages"));
        assertThat(python.hidden(List.of(candidate))).as("PYTHONPATH's own directories; not the project, not the system's")
                .contains(pythonLib.getParent(), py.getParent()).doesNotContain(project, Path.of("/usr/lib/python3/dist-packages"));

        Path shared = file(project, "shared/util.pm");
        Path candidateScript = file(project, "shared/cand.pl");
        ReferenceFiles sharing = ReferenceFiles.of(Path.of("/usr/bin/perl"), List.of("/usr/bin/perl", "-Ishared", "frozen/script/ref.pl"),
                project, List.of(candidateScript), project);
        assertThat(sharing.hidden(List.of(candidateScript))).as("a module directory holding what the candidate runs stays visible")
                .doesNotContain(shared.getParent());
    }
}
