package dev.accelbridge.reports.render;

import dev.accelbridge.core.PublicApi;

/**
 * One escaping rule per output format, for text Accelbridge did not write (model, node and input names, onnxruntime-web's
 * error messages, a joined page's words, a merged file's fields): whatever it holds — control characters, ANSI escapes,
 * markup, newlines — every report stays well-formed and every terminal line stays one line.
 */
@PublicApi
public final class Text {
    private Text() {
    }

    /**
     * For XML 1.0 (junit.xml): characters XML forbids (C0 controls but tab, newline and return; unpaired surrogates;
     * U+FFFE, U+FFFF) become U+FFFD. Markup itself is escaped by the XML writer.
     */
    public static String xml(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                b.append(c).append(s.charAt(++i));
            } else if (c == '\t' || c == '\n' || c == '\r' || (c >= 0x20 && c < 0xD800) || (c > 0xDFFF && c < 0xFFFE)) {
                b.append(c);
            } else {
                b.append('\uFFFD');
            }
        }
        return b.toString();
    }

    /**
     * For one line of a terminal: ANSI escape sequences removed, other control characters (newlines included) shown as a
     * space, so a name cannot move the cursor, recolour or clear the screen.
     */
    public static String terminal(String s) {
        return dev.accelbridge.core.Untrusted.oneLine(s);
    }

    /**
     * For a Markdown table cell or inline text: one line, no control characters, HTML escaped, {@code |} escaped, and what
     * makes a link, an image, a code span or emphasis escaped ({@code \ ` * ~}, and {@code (} or {@code [} after {@code ]}),
     * with web addresses broken so no viewer links them ({@code https\://}, {@code www\.}): a name like
     * {@code ![i](http://host/p.png)} stays text.
     */
    public static String markdown(String s) {
        String t = terminal(s);
        StringBuilder b = new StringBuilder(t.length() + 8);
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            // a link or an image needs "](" or "][" after its text: the bracket's follower is escaped, so names keep their
            // brackets as written ([chromium 156]) and no name can link
            if ("\\`*~".indexOf(c) >= 0 || ((c == '(' || c == '[') && i > 0 && t.charAt(i - 1) == ']')) {
                b.append('\\');
            }
            b.append(c);
        }
        String escaped = AUTOLINK_SCHEME.matcher(b).replaceAll("$1\\\\:");
        escaped = AUTOLINK_WWW.matcher(escaped).replaceAll("$1\\\\.");
        return HtmlRenderer.h(escaped).replace("|", "\\|");
    }

    private static final java.util.regex.Pattern AUTOLINK_SCHEME = java.util.regex.Pattern.compile("(?i)\\b([a-z][a-z0-9+.-]{1,31}):(?=//)");
    private static final java.util.regex.Pattern AUTOLINK_WWW = java.util.regex.Pattern.compile("(?i)\\b(www)\\.");

    /** For HTML text and attributes: escaped, control characters shown as a space. */
    public static String html(String s) {
        return HtmlRenderer.h(s);
    }
}
