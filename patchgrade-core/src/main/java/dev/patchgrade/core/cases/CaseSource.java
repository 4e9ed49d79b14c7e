package dev.patchgrade.core.cases;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.PatchgradeException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.AbstractCollection;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The cases of a checked cases file (see {@link CasesFile#open}), read from the file again, one at a time, by
 * each iteration: nothing is held per case. The file is an oracle, so it cannot change while a grade runs
 * without the grade failing anyway; a line that no longer reads as it did says so at once.
 */
public final class CaseSource extends AbstractCollection<Case> {
    private final Path file;
    private final boolean goldenRequired;
    private final Shard shard;
    private final int size;

    CaseSource(Path file, boolean goldenRequired, Shard shard, int size) {
        this.file = file;
        this.goldenRequired = goldenRequired;
        this.shard = shard;
        this.size = size;
    }

    /** The number of cases of the shard, counted when the file was checked. */
    @Override
    public int size() {
        return size;
    }

    /** Reads the file as it is taken; close it (or take every case) to let the file go. */
    @Override
    public Reading iterator() {
        return new Reading();
    }

    /** One pass over the file. */
    public final class Reading implements Iterator<Case>, AutoCloseable {
        private LineReader lines;
        private Case next;
        private int taken;
        private boolean done;

        @Override
        public boolean hasNext() {
            if (next == null && !done) {
                next = advance();
            }
            return next != null;
        }

        @Override
        public Case next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            Case c = next;
            next = null;
            taken++;
            return c;
        }

        private Case advance() {
            try {
                if (lines == null) {
                    lines = LineReader.open(file);
                }
                boolean jsonLines = CasesFile.jsonLines(file);
                for (String line = lines.next(); line != null; line = lines.next()) {
                    Case c = CaseLine.parse(file, lines.number(), line, jsonLines, goldenRequired);
                    if (c != null && shard.selects(c.id())) {
                        if (taken == size) {
                            throw changed("it holds more cases than when it was checked");
                        }
                        return c;
                    }
                }
                close();
                if (taken != size) {
                    throw changed("it holds fewer cases than when it was checked");
                }
                return null;
            } catch (IOException e) {
                throw changed(e.toString());
            } catch (CasesFormatException e) {
                throw changed(e.getMessage());
            }
        }

        private PatchgradeException changed(String how) {
            done = true;
            try {
                close();
            } catch (UncheckedIOException ignored) {
                // the change is the news
            }
            return new PatchgradeException(ErrorName.ORACLE_TAMPERED, file + " changed while the goal ran (" + how + "). Grading goals never "
                    + "write oracle files, so something the grade launched did: restore the file from version control (git checkout -- <file>)"
                    + " and treat the candidate as hostile; no verdict from this run counts.");
        }

        @Override
        public void close() {
            done = true;
            if (lines != null) {
                try {
                    lines.close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                } finally {
                    lines = null;
                }
            }
        }
    }
}
