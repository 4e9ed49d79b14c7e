package dev.patchgrade.core.coverage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The hunks of git's unified diff, read to the added and modified lines of the new file. */
class PatchDiffTest {
    private static final String TWO_FILES = """
            diff --git a/src/calc.c b/src/calc.c
            index 83db48f..bf269f4 100644
            --- a/src/calc.c
            +++ b/src/calc.c
            @@ -3 +3 @@ int add(int a, int b) {
            -    return a + b;
            +    return b + a;
            @@ -10,0 +11,3 @@ int sub(int a, int b) {
            +    if (a < b)
            +        return -(b - a);
            +    return a - b;
            @@ -20,2 +23,0 @@ int mul(int a, int b) {
            -    /* old comment */
            -    /* another */
            diff --git a/src/new.h b/src/new.h
            new file mode 100644
            index 0000000..e69de29
            --- /dev/null
            +++ b/src/new.h
            @@ -0,0 +1,2 @@
            +#pragma once
            +int twice(int);
            """;

    @Test
    void addedAndModifiedLinesAreTheNewFilesPlusLines() {
        List<PatchDiff.FileChange> files = PatchDiff.parse(TWO_FILES);
        assertThat(files).extracting(PatchDiff.FileChange::path).containsExactly("src/calc.c", "src/new.h");
        assertThat(files.get(0).changedLines()).containsExactly(3, 11, 12, 13);
        assertThat(files.get(0).oldPath()).isEqualTo("src/calc.c");
        assertThat(files.get(1).changedLines()).containsExactly(1, 2);
        assertThat(files.get(1).oldPath()).isNull();
    }

    @Test
    void removedLinesKeepTheirOldNumbersAndAreNotChangedLines() {
        PatchDiff.Hunk removal = PatchDiff.parse(TWO_FILES).get(0).hunks().get(2);
        assertThat(removal.lines()).extracting(PatchDiff.Line::kind).containsOnly('-');
        assertThat(removal.lines()).extracting(PatchDiff.Line::line).containsExactly(20, 21);
        assertThat(removal.newCount()).isZero();
        assertThat(removal.section()).isEqualTo("int mul(int a, int b) {");
    }

    @Test
    void aCountOmittedInTheHeaderIsOne() {
        PatchDiff.Hunk first = PatchDiff.parse(TWO_FILES).get(0).hunks().get(0);
        assertThat(first.oldCount()).isEqualTo(1);
        assertThat(first.newCount()).isEqualTo(1);
        assertThat(first.header()).isEqualTo("@@ -3,1 +3,1 @@ int add(int a, int b) {");
    }

    @Test
    void contextLinesAdvanceBothSidesAndAreNotChanged() {
        String diff = """
                diff --git a/a.c b/a.c
                --- a/a.c
                +++ b/a.c
                @@ -5,4 +5,5 @@
                 int x;
                -int y;
                +int y = 1;
                +int z;
                 int w;
                 int v;
                """;
        PatchDiff.FileChange file = PatchDiff.parse(diff).get(0);
        assertThat(file.changedLines()).containsExactly(6, 7);
        assertThat(file.hunks().get(0).lines()).extracting(PatchDiff.Line::line).containsExactly(5, 6, 6, 7, 8, 9);
    }

    @Test
    void aBodyLineThatLooksLikeAHeaderIsReadAsTheLineItIs() {
        // The removed line reads "-- a/x" and the added one "++ b/y" and "@@ x": only the counts tell the body's end.
        String diff = """
                diff --git a/a.c b/a.c
                --- a/a.c
                +++ b/a.c
                @@ -1,2 +1,3 @@
                --- a/x
                -diff --git a/q b/q
                +++ b/y
                +@@ -1 +1 @@
                +diff --git a/z b/z
                """;
        List<PatchDiff.FileChange> files = PatchDiff.parse(diff);
        assertThat(files).hasSize(1);
        assertThat(files.get(0).changedLines()).containsExactly(1, 2, 3);
        assertThat(files.get(0).hunks().get(0).lines()).extracting(PatchDiff.Line::text)
                .containsExactly("-- a/x", "diff --git a/q b/q", "++ b/y", "@@ -1 +1 @@", "diff --git a/z b/z");
    }

    @Test
    void noNewlineMarkersAreNotLines() {
        String diff = """
                diff --git a/a.c b/a.c
                --- a/a.c
                +++ b/a.c
                @@ -1 +1 @@
                -int a;
                \\ No newline at end of file
                +int b;
                \\ No newline at end of file
                @@ -9 +9 @@
                -x
                +y
                """;
        PatchDiff.FileChange file = PatchDiff.parse(diff).get(0);
        assertThat(file.hunks()).hasSize(2);
        assertThat(file.changedLines()).containsExactly(1, 9);
    }

    @Test
    void deletedFilesBinaryFilesAndModeChangesHaveNoChangedLines() {
        String diff = """
                diff --git a/gone.c b/gone.c
                deleted file mode 100644
                --- a/gone.c
                +++ /dev/null
                @@ -1,2 +0,0 @@
                -int a;
                -int b;
                diff --git a/logo.c b/logo.c
                index 1..2 100644
                Binary files a/logo.c and b/logo.c differ
                diff --git a/run.c b/run.c
                old mode 100644
                new mode 100755
                diff --git a/kept.c b/kept.c
                --- a/kept.c
                +++ b/kept.c
                @@ -1 +1 @@
                -a
                +b
                """;
        assertThat(PatchDiff.parse(diff)).extracting(PatchDiff.FileChange::path).containsExactly("kept.c");
    }

    @Test
    void aRenamedFileIsNamedByItsNewPath() {
        String diff = """
                diff --git a/old.c b/lib/new.c
                similarity index 90%
                rename from old.c
                rename to lib/new.c
                --- a/old.c
                +++ b/lib/new.c
                @@ -2 +2 @@
                -a
                +b
                """;
        PatchDiff.FileChange file = PatchDiff.parse(diff).get(0);
        assertThat(file.path()).isEqualTo("lib/new.c");
        assertThat(file.oldPath()).isEqualTo("old.c");
    }

    @Test
    void quotedPathsAreUnquotedAsUtf8() {
        String diff = "diff --git \"a/caf\\303\\251.c\" \"b/caf\\303\\251.c\"\n--- \"a/caf\\303\\251.c\"\n+++ \"b/caf\\303\\251 \\\"x\\\"\\t.c\"\n@@ -1 +1 @@\n-a\n+b\n";
        assertThat(PatchDiff.parse(diff).get(0).path()).isEqualTo("caf\u00e9 \"x\"\t.c");
        assertThat(PatchDiff.unquote("plain/name.c")).isEqualTo("plain/name.c");
        assertThat(PatchDiff.unquote("\"back\\\\slash.c\"")).isEqualTo("back\\slash.c");
    }

    @Test
    void crLfDiffsReadTheSame() {
        String diff = "diff --git a/a.c b/a.c\r\n--- a/a.c\r\n+++ b/a.c\r\n@@ -1 +1,2 @@\r\n-a\r\n+b\r\n+c\r\n";
        PatchDiff.FileChange file = PatchDiff.parse(diff).get(0);
        assertThat(file.path()).isEqualTo("a.c");
        assertThat(file.changedLines()).containsExactly(1, 2);
        assertThat(file.hunks().get(0).lines().get(1).text()).isEqualTo("b");
    }

    @Test
    void anEmptyDiffHasNoFiles() {
        assertThat(PatchDiff.parse("")).isEmpty();
    }

    @Test
    void aTruncatedHunkOrABadHeaderIsAnError() {
        assertThatThrownBy(() -> PatchDiff.parse("--- a/a.c\n+++ b/a.c\n@@ -1,3 +1,3 @@\n-a\n+b\n")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ends before its 3 old and 3 new lines");
        assertThatThrownBy(() -> PatchDiff.parse("+++ b/a.c\n@@ -x +1 @@\n+b\n")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not numbers");
        assertThatThrownBy(() -> PatchDiff.parse("+++ b/a.c\n@@ -1 +1\n")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("closing @@");
        assertThatThrownBy(() -> PatchDiff.parse("+++ b/a.c\n@@ -1 +1 @@\n?a\n")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("neither +, - nor a space");
    }

    @Test
    void cAndCppFilesAreToldByTheirExtension() {
        assertThat(List.of("a.c", "dir/a.cc", "a.cpp", "a.cxx", "a.h", "a.hh", "a.hpp", "a.hxx", "A.C", "x.H", "a.c++", "t.tcc", "m.inl", "x.ipp"))
                .allMatch(PatchDiff::isCOrCpp);
        assertThat(List.of("a.py", "a.java", "Makefile", "a.c.orig", "c", "dir.c/readme", "dir/.c", "a.", "CMakeLists.txt", "a.cs"))
                .noneMatch(PatchDiff::isCOrCpp);
    }
}
