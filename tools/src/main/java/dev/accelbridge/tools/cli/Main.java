package dev.accelbridge.tools.cli;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.Untrusted;
import dev.accelbridge.reports.store.DuckDbNative;
import dev.accelbridge.run.PlanDefaults;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;

/** Entry point of {@code ./accelbridge}. */
@Command(name = "accelbridge", mixinStandardHelpOptions = true, versionProvider = Versions.class,
        description = "Runs the same ONNX models in real browsers (WebGPU, WebNN, WASM) and natively (ONNX Runtime "
                + "via DJL), checks every output against a native CPU reference and scores each case into one "
                + "compatibility matrix.",
        subcommands = {DetectCommand.class, SuitesCommand.class, RunCommand.class, ServeCommand.class,
                ReportCommand.class, ObserveCommand.class, ExportCommand.class, MergeCommand.class, RecommendCommand.class, CompareCommand.class, OpsCommand.class, PredictCommand.class, FitCommand.class,
                BisectCommand.class, BisectVersionsCommand.class, DashboardCommand.class, BundleCommand.class})
public final class Main implements Runnable {

    /** Exit code: everything ran and the --fail-on policy is satisfied. */
    public static final int OK = 0;
    /** Exit code: the run completed but a --fail-on condition holds. */
    public static final int POLICY_FAILED = 1;
    /** Exit code: bad input or an error that stopped the command. */
    public static final int ERROR = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Builds the picocli command line with Accelbridge's error handling. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        // what a run takes by default is said from the defaults themselves, never restated by hand
        var run = cl.getSubcommands().get("run").getCommandSpec().usageMessage();
        run.description(java.util.Arrays.stream(run.description())
                .map(d -> d.equals("@defaults@") ? PlanDefaults.describe() : d).toArray(String[]::new));
        // Autoflush: the table and JSON must be out before System.exit.
        // every line printed passes the one terminal rule (TerminalSafeWriter), whichever command printed it
        cl.setOut(new PrintWriter(new TerminalSafeWriter(new java.io.OutputStreamWriter(System.out, java.nio.charset.StandardCharsets.UTF_8)), true));
        cl.setErr(new PrintWriter(new TerminalSafeWriter(new java.io.OutputStreamWriter(System.err, java.nio.charset.StandardCharsets.UTF_8)), true));
        // each command's options in rooms: its own, then each options group under its heading (OptionSections)
        java.util.stream.Stream.concat(java.util.stream.Stream.of(cl), cl.getSubcommands().values().stream()).forEach(c ->
                c.getHelpSectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_OPTION_LIST, new OptionSections()));
        cl.setExecutionExceptionHandler(Main::handle);
        cl.setParameterExceptionHandler((ex, args) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            // the command's full name ("accelbridge run"); the tool's own is "accelbridge", never said twice
            err.println("error: " + oneLine(ex.getMessage()) + " — see '" + ex.getCommandLine().getCommandSpec().qualifiedName()
                    + " --help'");
            return ERROR;
        });
        // a word no command takes is an error even beside --help: found when read, 'accelbridge NOSUCH --help' printed the
        // top-level help and exited 0, so a mistyped command in a script passed
        cl.setExecutionStrategy(parse -> {
            for (CommandLine c : parse.asCommandLineList()) {
                if (!c.getParseResult().unmatched().isEmpty()) {
                    throw new CommandLine.UnmatchedArgumentException(c, c.getParseResult().unmatched());
                }
            }
            return new CommandLine.RunLast().execute(parse);
        });
        return cl;
    }

    private static int handle(Exception ex, CommandLine cl, CommandLine.ParseResult parse) {
        boolean verbose = parse.expandedArgs().contains("--verbose") || parse.expandedArgs().contains("-v");
        PrintWriter err = cl.getErr();
        Throwable t = ex;
        while (!(t instanceof AccelbridgeException) && t.getCause() != null && t != t.getCause()) {
            t = t.getCause();
        }
        if (t instanceof AccelbridgeException ae) {
            // the message may quote a model's or a file's own text: it cannot move the cursor or recolour the terminal
            err.println("error: " + oneLine(ae.oneLine()));
        } else {
            err.println("error: " + ex + " — rerun with --verbose for the stack trace and report it");
        }
        if (verbose) {
            ex.printStackTrace(err);
        }
        err.flush();
        return ERROR;
    }

    /**
     * An error line as the terminal gets it: one line, no escape sequence, and every value quoted in it ({@code '...'}, as
     * picocli quotes an unknown option or a bad value) at most {@link Untrusted#MAX_QUOTE} characters. Found when tried: a
     * 100 KB bad version was echoed whole, and its escape characters reached the terminal.
     */
    static String oneLine(String message) {
        String line = Untrusted.oneLine(message);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("'([^']{" + (Untrusted.MAX_QUOTE + 1) + ",})'").matcher(line);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(b, java.util.regex.Matcher.quoteReplacement(Untrusted.quote(m.group(1))));
        }
        m.appendTail(b);
        return Untrusted.bounded(b.toString(), 2 * Untrusted.MAX_REASON);
    }

    /** Whether this JVM was started for one command ({@link #main}): a run's account then begins at the JVM's start. */
    static volatile boolean processOwned;

    /** Runs the CLI and exits with its code. */
    public static void main(String[] args) {
        processOwned = true;
        DuckDbNative.preloadInBackground(); // DuckDB unpacks its native library at every start: overlapped with the rest of it
        CommandLine cl = commandLine();
        int code = cl.execute(args);
        cl.getOut().flush();
        cl.getErr().flush();
        System.exit(code);
    }
}
