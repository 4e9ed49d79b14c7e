package dev.patchgrade.core.cases;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Suggestions;
import java.nio.file.Path;
import java.util.function.Function;

/** A cases file that cannot be read; the message names the file, the line and the fix. */
public class CasesFormatException extends PatchgradeException {
    public CasesFormatException(Path file, int line, String problem) {
        super(ErrorName.MALFORMED_CASES, file + (line > 0 ? ":" + line : "") + ": " + problem);
    }

    /** The same, for a problem that names a goal setting. */
    public CasesFormatException(Path file, int line, Function<Suggestions, String> problem) {
        super(ErrorName.MALFORMED_CASES, shown -> file + (line > 0 ? ":" + line : "") + ": " + problem.apply(shown));
    }
}
