package dev.patchgrade.core.classify;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.Suggestions;
import dev.patchgrade.core.hashing.Sha256;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;

/**
 * The frozen reference's identity, in {@code sha256sum} format: {@code <hex>  <path>}, the path
 * optional ({@code *} before it for binary mode is accepted too), hex in either case. One line per frozen file
 * ({@link ReferenceHome}): the executable first, then the files its command names inside the reference's home, in the command's order.
 */
public final class ReferenceSidecar {
    private static final java.util.regex.Pattern LINE = java.util.regex.Pattern.compile("([0-9a-fA-F]{64})(?:[ \\t]+\\*?(.*))?");

    private ReferenceSidecar() {}

    /** The digests recorded in the sidecar, lower case, in order; {@code null} when there is no sidecar. */
    public static List<String> read(Path sidecar) {
        return read(sidecar, Suggestions.PLAIN.rerun("freeze-reference", Suggestions.SOME_EXECUTION, Setting.FORCE.is("true")));
    }

    /**
     * @param refreeze the command that re-creates the sidecar, as the message should print it
     */
    public static List<String> read(Path sidecar, String refreeze) {
        String text;
        try {
            text = Files.readString(sidecar, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new PatchgradeException(ErrorName.MALFORMED_SIDECAR, sidecar + ": cannot be read (" + e.getMessage() + ")");
        }
        List<String> lines = text.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        List<String> digests = new ArrayList<>();
        for (int i = 0; i < Math.max(1, lines.size()); i++) {
            String line = i < lines.size() ? lines.get(i) : "";
            Matcher m = LINE.matcher(line);
            if (!m.matches()) {
                throw new PatchgradeException(ErrorName.MALFORMED_SIDECAR, sidecar + ": line " + (i + 1) + " is not in sha256sum format, "
                        + "\"<64 hex digits>  <path>\" (found \"" + abbreviate(line) + "\"). Re-create it with `" + refreeze + "` "
                        + "after reviewing the reference");
            }
            digests.add(m.group(1).toLowerCase(Locale.ROOT));
        }
        return List.copyOf(digests);
    }

    public static String line(String sha256, String shownPath) {
        return sha256 + "  " + shownPath + "\n";
    }

    public static String sha256(Path file) {
        MessageDigest digest = Sha256.digest();
        try (InputStream in = Files.newInputStream(file)) {
            byte[] block = new byte[1 << 16];
            int n;
            while ((n = in.read(block)) > 0) {
                digest.update(block, 0, n);
            }
        } catch (IOException e) {
            throw new PatchgradeException(ErrorName.ORACLE_UNREADABLE, file + ": cannot read the reference binary (" + e.getMessage() + ")");
        }
        return Sha256.hex(digest.digest());
    }

    private static String abbreviate(String text) {
        return text.length() > 100 ? text.substring(0, 100) + "..." : text;
    }
}
