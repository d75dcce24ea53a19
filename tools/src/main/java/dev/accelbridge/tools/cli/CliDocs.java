package dev.accelbridge.tools.cli;

import picocli.CommandLine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * {@code docs/cli.md}: every command's {@code --help}, as picocli prints it, at a fixed width and without colour so the
 * page is the same on every machine. The page is generated, never written by hand; a test keeps it equal to the
 * commands, and {@link #main} writes it.
 */
public final class CliDocs {
    /** The width the help is laid out at in the page. */
    static final int WIDTH = 100;

    private CliDocs() {
    }

    /** The page for the CLI as {@link Main#commandLine()} builds it. */
    public static String markdown() {
        CommandLine root = Main.commandLine();
        StringBuilder md = new StringBuilder();
        md.append("# The command line\n\n")
                .append("Generated from the commands' own `--help` (`./accelbridge COMMAND --help` prints the same); do not edit ")
                .append("it: `ACCELBRIDGE_WRITE_DOCS=1 ./mvnw -q -pl tools test -Dtest=CliDocsTest` writes it again.\n\n");
        md.append("Commands:");
        for (String name : root.getSubcommands().keySet()) {
            md.append(" [`").append(name).append("`](#").append(name).append(')');
        }
        md.append("\n\n```text\n").append(usage(root)).append("```\n");
        for (Map.Entry<String, CommandLine> e : root.getSubcommands().entrySet()) {
            md.append("\n## ").append(e.getKey()).append("\n\n```text\n").append(usage(e.getValue())).append("```\n");
        }
        return md.toString();
    }

    private static String usage(CommandLine cl) {
        cl.setUsageHelpWidth(WIDTH);
        cl.setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
        // trailing blanks are layout, not content (and editors strip them)
        return cl.getUsageMessage().lines().map(String::stripTrailing).collect(java.util.stream.Collectors.joining("\n", "", "\n"));
    }

    /** Writes the page to {@code args[0]} (default {@code docs/cli.md}). */
    public static void main(String[] args) throws IOException {
        Path out = Path.of(args.length > 0 ? args[0] : "docs/cli.md");
        Files.writeString(out, markdown(), StandardCharsets.UTF_8);
    }
}
