package dev.patchgrade.core.digest;

/** How a digest row reads in one line: the failure's message, the build's failure line and the console's drift column. */
final class DigestText {
    private DigestText() {}

    /** Every drift, how long a time drift stayed over its reruns, and the differing lines shown. */
    static String message(DigestRow row) {
        StringBuilder message = new StringBuilder();
        for (DigestTuple.Drift drift : row.drifts()) {
            message.append(message.length() == 0 ? "" : "; ").append(drift.describe());
        }
        if (row.reruns() > 0 && row.drifts().stream().anyMatch(d -> d.field() == DriftField.TIME_BUCKET)) {
            message.append(" (stayed shifted over ").append(row.reruns()).append(" rerun").append(row.reruns() == 1 ? "" : "s").append(')');
        }
        for (String line : row.shownLines()) {
            message.append("; ").append(line);
        }
        return message.toString();
    }

    /** The drifts for a console: full hashes are in the reports, and twelve hex digits tell them apart. */
    static String consoleDrift(DigestRow row) {
        return row.drifts().stream().map(DigestTuple.Drift::describe).reduce((a, b) -> a + "; " + b).orElse("")
                .replaceAll("\\b([0-9a-f]{12})[0-9a-f]{52}\\b", "$1");
    }
}
