package dev.accelbridge.tools.dashboard;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.run.PlanJson;
import dev.accelbridge.run.RunPlan;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.reports.store.MatrixStore;
import dev.accelbridge.reports.store.ResultJson;
import dev.accelbridge.reports.store.RunInfo;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Starts runs for the dashboard: the form's plan, written as {@link PlanJson} and run by {@code accelbridge run --plan FILE}
 * in a process of its own (the same path as the CLI; a crash of a browser or a model cannot take the dashboard down) writing into the dashboard's store
 * and its reports folder. One run at a time per store: a request while a run started here is alive, or while any
 * process runs on the store, is refused with {@link Busy}.
 */
public final class RunLauncher {
    /** A run is already in progress on the store. */
    public static final class Busy extends AccelbridgeException {
        Busy(String problem) {
            super(problem, "wait for it to finish (the Live view shows it), then start the next one");
        }
    }

    private final MatrixStore store;
    private final Path outDir;
    private Process process;
    private List<String> args = List.of();
    private Instant startedAt;
    private Path log;

    /**
     * @param store  the dashboard's store (runs write into its file)
     * @param outDir where the runs' reports and logs go
     */
    public RunLauncher(MatrixStore store, Path outDir) {
        this.store = store;
        this.outDir = outDir;
    }

    /**
     * Starts a run.
     *
     * @return what {@link #status()} answers for it
     * @throws Busy                when a run is in progress on the store
     * @throws AccelbridgeException when the arguments are refused (the CLI's own message)
     */
    public synchronized ObjectNode start(RunForm form) {
        RunPlan plan = form.plan(); // refused (a bad value, a plan that cannot run) before anything starts
        if (process != null && process.isAlive()) {
            throw new Busy("A run started from the dashboard is in progress on " + store.path() + " (pid " + process.pid()
                    + ", started " + startedAt + ", arguments: " + String.join(" ", args) + ")");
        }
        List<RunInfo> live = store.liveRuns();
        if (!live.isEmpty()) {
            throw new Busy("Run " + live.get(0).runId() + " is in progress on " + store.path() + " (started " + live.get(0).startedAt()
                    + " by another process)");
        }
        try {
            Files.createDirectories(outDir);
            startedAt = Instant.now();
            log = outDir.resolve("dashboard-run-" + startedAt.toEpochMilli() + ".log");
            Path planFile = outDir.resolve("dashboard-run-" + startedAt.toEpochMilli() + ".plan.json");
            Files.writeString(planFile, PlanJson.write(plan).toPrettyString());
            List<String> runArgs = List.of("--plan", planFile.toString());
            List<String> cmd = command(runArgs);
            process = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            args = runArgs;
        } catch (IOException e) {
            throw new AccelbridgeException("Cannot start the run: " + e.getMessage(), "check that " + outDir + " is writable");
        }
        return status();
    }

    /** The run started here last: idle, running or exited, with its arguments, exit code and the end of its log. */
    public synchronized ObjectNode status() {
        ObjectNode o = ResultJson.MAPPER.createObjectNode();
        if (process == null) {
            return o.put("state", "idle");
        }
        o.put("state", process.isAlive() ? "running" : "exited").put("pid", process.pid())
                .put("startedAt", startedAt.toString()).put("log", log.toString());
        if (!process.isAlive()) {
            o.put("exitCode", process.exitValue());
        }
        o.set("args", ResultJson.strings(args));
        o.put("logTail", tail(log, 4000));
        return o;
    }

    /** Ends a run started here (the dashboard is closing); the store marks it interrupted and --resume finishes it. */
    public synchronized void stop() {
        if (process != null && process.isAlive()) {
            process.descendants().forEach(ProcessHandle::destroy);
            process.destroy();
        }
    }

    /** {@code java -cp <this class path> Main run <args> --db <store> --out <dir>}, with this JVM's accelbridge settings. */
    List<String> command(List<String> runArgs) {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("-Xmx") || a.startsWith("-Daccelbridge.") || a.startsWith("-Donnxruntime.")) {
                cmd.add(a);
            }
        }
        Optional.ofNullable(System.getProperty("accelbridge.home")).filter(h -> cmd.stream().noneMatch(x -> x.startsWith("-Daccelbridge.home")))
                .ifPresent(h -> cmd.add("-Daccelbridge.home=" + h));
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add("dev.accelbridge.tools.cli.Main");
        cmd.add("run");
        cmd.addAll(runArgs);
        cmd.add("--db");
        cmd.add(store.path().toString());
        cmd.add("--out");
        cmd.add(outDir.toString());
        return cmd;
    }

    private static String tail(Path p, int chars) {
        try {
            String s = Files.readString(p, StandardCharsets.UTF_8);
            return s.length() <= chars ? s : s.substring(s.length() - chars);
        } catch (IOException | java.io.UncheckedIOException e) {
            return "";
        }
    }
}
