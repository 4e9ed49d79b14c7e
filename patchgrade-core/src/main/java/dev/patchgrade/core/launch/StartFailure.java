package dev.patchgrade.core.launch;

/** Why a command never ran. Distinct from any exit status, including 127. */
public record StartFailure(Kind kind, String executable, String detail) {
    public enum Kind {
        NOT_FOUND("not found"),
        NOT_EXECUTABLE("not executable"),
        BAD_FORMAT("not a program this system can run"),
        OTHER("could not be started");

        private final String words;

        Kind(String words) {
            this.words = words;
        }

        public String words() {
            return words;
        }
    }

    public String describe() {
        return executable + ": " + kind.words() + (detail == null || detail.isEmpty() ? "" : " (" + detail + ")");
    }
}
