package dev.patchgrade.core.envelope;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.PatchgradeException;
import java.nio.file.Path;

/** An envelope file that cannot be read as one; the message names the file, the key and the fix. */
public class EnvelopeFormatException extends PatchgradeException {
    public EnvelopeFormatException(Path file, String problem) {
        super(ErrorName.MALFORMED_ENVELOPE, file + ": " + problem);
    }
}
