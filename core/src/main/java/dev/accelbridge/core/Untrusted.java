package dev.accelbridge.core;

/**
 * Text that another program wrote (a registry's answer, a runner's log, a page's error, a browser's version line, a value
 * typed on the command line), made safe to keep and show: ANSI escape sequences removed, every other control character
 * (newlines included) a space, and the length bounded. One rule, so a reason, a diagnostic and a terminal line cannot be
 * recoloured, broken into lines or blown up by what they quote.
 */
public final class Untrusted {
    /** The longest reason, warning or hop reason a result keeps: far beyond any error worth reading, far below the store's limit. */
    public static final int MAX_REASON = 4096;
    /** The most characters of a bad value an error line quotes. */
    public static final int MAX_QUOTE = 80;

    private static final java.util.regex.Pattern ANSI =
            java.util.regex.Pattern.compile("\u001B\\[[0-?]*[ -/]*[@-~]|\u001B\\][^\u0007\u001B]*(\u0007|\u001B\\\\)?|\u001B.?");

    private Untrusted() {
    }

    /** One line: escape sequences removed, control characters shown as a space; null is "". */
    public static String oneLine(String s) {
        if (s == null) {
            return "";
        }
        String noAnsi = ANSI.matcher(s).replaceAll("");
        StringBuilder b = new StringBuilder(noAnsi.length());
        for (int i = 0; i < noAnsi.length(); i++) {
            char c = noAnsi.charAt(i);
            b.append(Character.isISOControl(c) ? ' ' : c);
        }
        return b.toString();
    }

    /**
     * {@link #oneLine} cut to {@code max} characters: a longer text keeps its start and says how much was left out
     * ({@code …(+999,751 characters)}). Null stays null, so an absent reason stays absent.
     */
    public static String bounded(String s, int max) {
        if (s == null) {
            return null;
        }
        String t = oneLine(s);
        if (t.length() <= max) {
            return t;
        }
        String more = String.format(java.util.Locale.ROOT, "…(+%,d characters)", t.length() - max);
        int keep = Math.max(0, max - more.length());
        if (keep > 0 && Character.isHighSurrogate(t.charAt(keep - 1))) {
            keep--;
        }
        return t.substring(0, keep) + more;
    }

    /** A reason or warning as a result keeps it ({@link #MAX_REASON}). */
    public static String reason(String s) {
        return bounded(s, MAX_REASON);
    }

    /**
     * A bad value quoted in an error line: {@code 'xxxxxxxx…' (300 characters)} when longer than {@link #MAX_QUOTE}, control
     * characters shown as a space.
     */
    public static String quote(String value) {
        if (value == null) {
            return "null";
        }
        String t = oneLine(value);
        if (t.length() <= MAX_QUOTE) {
            return "'" + t + "'";
        }
        return "'" + t.substring(0, MAX_QUOTE - 1) + "…' (" + String.format(java.util.Locale.ROOT, "%,d", t.length()) + " characters)";
    }
}
