package dev.accelbridge.browser.page;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What the page's scripts read of the bridge's messages, and what they send: read from the scripts themselves. A received
 * message is named {@code msg} in the page (or is a frame's {@code header}, or a name given one of its fields:
 * {@code const opts = msg.options || {}}), so {@code msg.model.url} is the path {@code model.url}. An answer is an object
 * literal with {@code type: Kind.X}; its own keys are what it sends (spread parts are not followed: the strict reading in
 * the tests holds those).
 */
final class PageReads {
    private static final Pattern ALIAS = Pattern.compile("\\b(?:const|let)\\s+(\\w+)\\s*=\\s*(?:msg\\.(\\w+)(?:\\s*\\|\\|\\s*\\{\\})?|\\w+\\.header)\\s*;");
    private static final Pattern KIND = Pattern.compile("type:\\s*Kind\\.(\\w+)");

    /** Paths read per script: {@code session}, {@code model.url}, ... */
    final Map<String, TreeSet<String>> reads = new TreeMap<>();
    /** Keys sent per answer kind (its JS name, {@code LOADED}), with the script that sends them. */
    final Map<String, TreeSet<String>> sends = new TreeMap<>();

    static PageReads of(Path pageDir) {
        PageReads r = new PageReads();
        try (Stream<Path> files = Files.walk(pageDir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".mjs")).sorted().toList()) {
                String js = Files.readString(f);
                String name = pageDir.relativize(f).toString().replace('\\', '/');
                r.reads.put(name, readsOf(js));
                sendsOf(js, r.sends);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return r;
    }

    /** Every path read of a received message in one script. */
    static TreeSet<String> readsOf(String js) {
        Map<String, String> alias = new LinkedHashMap<>();
        alias.put("msg", "");
        Matcher a = ALIAS.matcher(js);
        while (a.find()) {
            alias.put(a.group(1), a.group(2) == null ? "" : a.group(2) + ".");
        }
        TreeSet<String> out = new TreeSet<>();
        for (var e : alias.entrySet()) {
            Matcher m = Pattern.compile("(?<![\\w.])" + e.getKey() + "\\.(\\w+)(?:\\.(\\w+))?").matcher(js);
            while (m.find()) {
                String first = e.getValue() + m.group(1);
                // a method or property of a value, not a field of the message (msg.model.externalData.map)
                out.add(m.group(2) == null || !e.getValue().isEmpty() ? first : first + "." + m.group(2));
            }
        }
        return out;
    }

    /** The own keys of each {@code {type: Kind.X, ...}} literal in one script. */
    static void sendsOf(String js, Map<String, TreeSet<String>> into) {
        Matcher k = KIND.matcher(js);
        while (k.find()) {
            int open = js.lastIndexOf('{', k.start());
            int close = matching(js, open);
            TreeSet<String> keys = into.computeIfAbsent(k.group(1), x -> new TreeSet<>());
            for (String part : topLevel(js.substring(open + 1, close))) {
                String p = part.strip();
                if (p.isEmpty() || p.startsWith("...")) {
                    continue;
                }
                int colon = p.indexOf(':');
                keys.add((colon < 0 ? p : p.substring(0, colon)).strip());
            }
        }
    }

    private static int matching(String s, int open) {
        int depth = 0;
        for (int i = open; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '{' || c == '(' || c == '[') {
                depth++;
            } else if (c == '}' || c == ')' || c == ']') {
                if (--depth == 0) {
                    return i;
                }
            }
        }
        throw new IllegalStateException("an answer's object literal does not close");
    }

    private static List<String> topLevel(String body) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int from = 0;
        char quote = 0;
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (quote != 0) {
                if (c == '\\') {
                    i++;
                } else if (c == quote) {
                    quote = 0;
                }
                continue;
            }
            if (c == '\'' || c == '"' || c == '`') {
                quote = c;
            } else if (c == '{' || c == '(' || c == '[') {
                depth++;
            } else if (c == '}' || c == ')' || c == ']') {
                depth--;
            } else if (c == ',' && depth == 0) {
                out.add(body.substring(from, i));
                from = i + 1;
            }
        }
        out.add(body.substring(from));
        return out;
    }
}
