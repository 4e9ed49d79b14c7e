package dev.patchgrade.core.cases;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.PatchgradeException;
import java.nio.file.Path;

/** A cases file that cannot be read; the message names the file, the line and the fix. */
public class CasesFormatException extends PatchgradeException {
    public CasesFormatException(Path file, int line, String problem) {
        super(ErrorName.MALFORMED_CASES, file + (line > 0 ? ":" + line : "") + ": " + problem);
    }
}
