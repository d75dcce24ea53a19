package dev.accelbridge.tools.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code accelbridge serve} running in the background, in this JVM, its printed lines watched for the page URL. */
final class ServedCli {
    final StringWriter outText = new StringWriter();
    final StringWriter err = new StringWriter();
    final CompletableFuture<Integer> exit;
    final CompletableFuture<String> url = new CompletableFuture<>();

    ServedCli(String... args) {
        Writer watching = new Writer() {
            @Override
            public synchronized void write(char[] cbuf, int off, int len) {
                outText.write(cbuf, off, len);
                Matcher m = Pattern.compile("join: (https?://127\\.0\\.0\\.1:\\d+/\\S*)").matcher(outText.toString());
                if (m.find() && outText.toString().contains("Dashboard")) {
                    url.complete(m.group(1));
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(watching, true));
        cl.setErr(new PrintWriter(err, true));
        exit = CompletableFuture.supplyAsync(() -> cl.execute(args));
    }

    String line(String prefix) {
        return outText.toString().lines().filter(l -> l.startsWith(prefix)).findFirst().orElseThrow().substring(prefix.length()).trim();
    }
}
