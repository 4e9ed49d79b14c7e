package dev.patchgrade.core.cases;

import java.util.List;

/**
 * One graded case.
 *
 * @param line the line of the cases file it came from (1-based), for messages
 * @param stdin text fed to the child, or {@code null} for empty stdin
 * @param golden the expected stdout in a three-column cases file, else {@code null}; never given to a child
 */
public record Case(String id, List<String> args, String stdin, String golden, int line) {
    public Case {
        args = List.copyOf(args);
    }
}
