package dev.accelbridge.tools.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the real CLI in-process and captures what it prints. */
public final class CliRunner {
    public record Result(int exitCode, String out, String err) {
    }

    private CliRunner() {
    }

    public static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new Result(code, out.toString(), err.toString());
    }
}
