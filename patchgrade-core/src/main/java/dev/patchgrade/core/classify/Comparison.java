package dev.patchgrade.core.classify;

import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The one equality rule a three-column grade applies to all three comparisons, declared before the
 * run. Streams are compared as they are read, so no output is held whole in memory.
 * <ul>
 *   <li>{@code trim}: leading and trailing white space removed from both sides, then exact;</li>
 *   <li>{@code exact}: character for character;</li>
 *   <li>{@code ulp:<n>}: white-space separated tokens; numbers equal within n units in the last place, other tokens exactly;</li>
 *   <li>{@code abs:<eps>}: the same with an absolute distance.</li>
 * </ul>
 */
public final class Comparison {
    private static final Pattern NUMBER = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?|[+-]?(inf|infinity|nan)",
            Pattern.CASE_INSENSITIVE);

    private enum Kind { TRIM, EXACT, ULP, ABS }

    private final Kind kind;
    private final long ulps;
    private final double epsilon;
    private final String text;

    private Comparison(Kind kind, long ulps, double epsilon, String text) {
        this.kind = kind;
        this.ulps = ulps;
        this.epsilon = epsilon;
        this.text = text;
    }

    public static Comparison parse(String value) {
        String spec = value == null ? "trim" : value.strip().toLowerCase(Locale.ROOT);
        try {
            if (spec.equals("trim")) {
                return new Comparison(Kind.TRIM, 0, 0, "trim");
            }
            if (spec.equals("exact")) {
                return new Comparison(Kind.EXACT, 0, 0, "exact");
            }
            if (spec.startsWith("ulp:")) {
                long n = Long.parseLong(spec.substring(4).strip());
                if (n >= 0) {
                    return new Comparison(Kind.ULP, n, 0, "ulp:" + n);
                }
            }
            if (spec.startsWith("abs:")) {
                double eps = new BigDecimal(spec.substring(4).strip()).doubleValue();
                if (eps >= 0 && Double.isFinite(eps)) {
                    return new Comparison(Kind.ABS, 0, eps, "abs:" + spec.substring(4).strip());
                }
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw PatchgradeException.badParameter(Setting.COMPARISON, "must be trim, exact, ulp:N (N >= 0) or abs:EPS (EPS >= 0), e.g. ulp:4 "
                + "or abs:1e-9 (found \"" + value + "\")");
    }

    @Override
    public String toString() {
        return text;
    }

    public boolean equal(Reader a, Reader b) {
        try {
            return switch (kind) {
                case EXACT -> sameChars(a, b);
                case TRIM -> sameChars(new TrimmedReader(a), new TrimmedReader(b));
                case ULP, ABS -> sameTokens(new Tokens(a), new Tokens(b));
            };
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read an output while comparing it", e);
        }
    }

    public boolean equal(String a, String b) {
        return equal(new java.io.StringReader(a), new java.io.StringReader(b));
    }

    private static boolean sameChars(Reader a, Reader b) throws IOException {
        char[] left = new char[8192];
        char[] right = new char[8192];
        while (true) {
            int n = fill(a, left);
            int m = fill(b, right);
            if (n != m) {
                return false;
            }
            if (n <= 0) {
                return true;
            }
            for (int i = 0; i < n; i++) {
                if (left[i] != right[i]) {
                    return false;
                }
            }
        }
    }

    private static int fill(Reader reader, char[] buffer) throws IOException {
        int total = 0;
        while (total < buffer.length) {
            int n = reader.read(buffer, total, buffer.length - total);
            if (n < 0) {
                break;
            }
            total += n;
        }
        return total == 0 ? -1 : total;
    }

    private boolean sameTokens(Tokens a, Tokens b) throws IOException {
        while (true) {
            String x = a.next();
            String y = b.next();
            if (x == null || y == null) {
                return x == null && y == null;
            }
            if (!sameToken(x, y)) {
                return false;
            }
        }
    }

    boolean sameToken(String x, String y) {
        if (x.equals(y)) {
            return true;
        }
        if (!NUMBER.matcher(x).matches() || !NUMBER.matcher(y).matches()) {
            return false;
        }
        double p = numberValue(x);
        double q = numberValue(y);
        if (Double.isNaN(p) || Double.isNaN(q)) {
            return Double.isNaN(p) && Double.isNaN(q);
        }
        if (kind == Kind.ABS) {
            if (Double.isInfinite(p) || Double.isInfinite(q)) {
                return p == q;
            }
            return Math.abs(p - q) <= epsilon;
        }
        return ulpDistance(p, q) <= ulps;
    }

    private static double numberValue(String token) {
        String lower = token.toLowerCase(Locale.ROOT);
        boolean negative = lower.startsWith("-");
        String magnitude = lower.replaceFirst("^[+-]", "");
        if (magnitude.startsWith("inf")) {
            return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        if (magnitude.equals("nan")) {
            return Double.NaN;
        }
        return Double.parseDouble(token);
    }

    /** Distance in representable doubles; -0.0 and 0.0 are zero apart. */
    static long ulpDistance(double a, double b) {
        long x = ordered(a);
        long y = ordered(b);
        long distance = x - y;
        if (((x ^ y) & (x ^ distance)) < 0) {
            return Long.MAX_VALUE;
        }
        return distance == Long.MIN_VALUE ? Long.MAX_VALUE : Math.abs(distance);
    }

    private static long ordered(double value) {
        long bits = Double.doubleToLongBits(value);
        return bits < 0 ? Long.MIN_VALUE - bits : bits;
    }

    /** Characters of a stream without its leading and trailing white space. */
    private static final class TrimmedReader extends Reader {
        private final Reader in;
        private final StringBuilder pendingSpace = new StringBuilder();
        private boolean started;
        private int pendingPosition;
        private int lookahead = -2;

        TrimmedReader(Reader in) {
            this.in = in;
        }

        @Override
        public int read(char[] buffer, int offset, int length) throws IOException {
            int count = 0;
            while (count < length) {
                int c = next();
                if (c < 0) {
                    break;
                }
                buffer[offset + count++] = (char) c;
            }
            return count == 0 && length > 0 ? -1 : count;
        }

        private int next() throws IOException {
            if (pendingPosition < pendingSpace.length()) {
                return pendingSpace.charAt(pendingPosition++);
            }
            if (lookahead != -2) {
                int c = lookahead;
                lookahead = -2;
                return c;
            }
            pendingSpace.setLength(0);
            pendingPosition = 0;
            int c = in.read();
            if (!started) {
                while (c >= 0 && Character.isWhitespace(c)) {
                    c = in.read();
                }
                started = true;
                return c;
            }
            if (c >= 0 && Character.isWhitespace(c)) {
                // Hold a run of white space until something follows it; at the end it is dropped.
                while (c >= 0 && Character.isWhitespace(c)) {
                    pendingSpace.append((char) c);
                    c = in.read();
                }
                if (c < 0) {
                    pendingSpace.setLength(0);
                    return -1;
                }
                lookahead = c;
                pendingPosition = 1;
                return pendingSpace.charAt(0);
            }
            return c;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    /** White-space separated tokens of a stream, one at a time. */
    private static final class Tokens {
        private final Reader in;

        Tokens(Reader in) {
            this.in = in;
        }

        String next() throws IOException {
            int c = in.read();
            while (c >= 0 && Character.isWhitespace(c)) {
                c = in.read();
            }
            if (c < 0) {
                return null;
            }
            StringBuilder token = new StringBuilder();
            while (c >= 0 && !Character.isWhitespace(c)) {
                token.append((char) c);
                c = in.read();
            }
            return token.toString();
        }
    }
}
