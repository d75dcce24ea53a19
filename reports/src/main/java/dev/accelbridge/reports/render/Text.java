package dev.accelbridge.reports.render;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.Untrusted;

import java.util.regex.Pattern;

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
        return Untrusted.oneLine(s);
    }

    /**
     * For a Markdown table cell or inline text: one line, no control characters, and every character CommonMark could
     * read as markup escaped with a backslash rather than as an HTML entity, so the text reads back as written both raw and
     * rendered: what makes emphasis, code or strike-through ({@code \\ ` * ~}, and {@code _} but within a word, where it is only a letter), raw HTML or an entity ({@code < > &}), a
     * table's cell ({@code |}), a link or an image ({@code (} or {@code [} after {@code ]}), and a block at the line's start
     * (a heading, a quote, a list, a link's definition); web addresses are broken so no viewer links them
     * ({@code https\://}, {@code www\.}): a name like {@code ![i](http://host/p.png)} stays text.
     */
    public static String markdown(String s) {
        String t = terminal(s);
        StringBuilder b = new StringBuilder(t.length() + 8);
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            // a link or an image needs "](" or "][" after its text: the bracket's follower is escaped, so names keep their
            // brackets as written ([chromium 156]) and no name can link
            if (INLINE_MARKUP.indexOf(c) >= 0 || (c == '_' && !withinWord(t, i)) || ((c == '(' || c == '[') && i > 0 && t.charAt(i - 1) == ']')
                    || (i == 0 && blockMark(t)) || (i > 0 && (c == '.' || c == ')') && orderedListMark(t, i))) {
                b.append('\\');
            }
            b.append(c);
        }
        String escaped = AUTOLINK_SCHEME.matcher(b).replaceAll("$1\\\\:");
        return AUTOLINK_WWW.matcher(escaped).replaceAll("$1\\\\.");
    }

    /** Whether the run of underscores around {@code t[i]} stands between two letters or digits (input_ids). */
    private static boolean withinWord(String t, int i) {
        int from = i;
        int to = i;
        while (from > 0 && t.charAt(from - 1) == '_') {
            from--;
        }
        while (to < t.length() - 1 && t.charAt(to + 1) == '_') {
            to++;
        }
        return from > 0 && to < t.length() - 1 && Character.isLetterOrDigit(t.charAt(from - 1))
                && Character.isLetterOrDigit(t.charAt(to + 1));
    }

    /**
     * Whether the text's first character would begin a block at a line's start: a heading ({@code #}), a link's definition
     * ({@code [}), a list item or a rule ({@code - + =} before a space, the end or their like: "- x", "---"). A number's
     * sign ("-0.5") is left as it is.
     */
    private static boolean blockMark(String t) {
        char c = t.charAt(0);
        if (c == '#' || c == '[') {
            return true;
        }
        return (c == '-' || c == '+' || c == '=') && (t.length() == 1 || t.charAt(1) == ' ' || t.charAt(1) == c);
    }

    /** Whether {@code t[i]} ends the digits the text begins with and a space or the end follows: "1. " starts a list. */
    private static boolean orderedListMark(String t, int i) {
        for (int j = 0; j < i; j++) {
            if (t.charAt(j) < '0' || t.charAt(j) > '9') {
                return false;
            }
        }
        return i + 1 == t.length() || t.charAt(i + 1) == ' ';
    }

    private static final String INLINE_MARKUP = "\\`*~<>&|";
    private static final Pattern AUTOLINK_SCHEME = Pattern.compile("(?i)\\b([a-z][a-z0-9+.-]{1,31}):(?=//)");
    private static final Pattern AUTOLINK_WWW = Pattern.compile("(?i)\\b(www)\\.");

    /** For HTML text and attributes: escaped, control characters shown as a space. */
    public static String html(String s) {
        return HtmlRenderer.h(s);
    }
}
