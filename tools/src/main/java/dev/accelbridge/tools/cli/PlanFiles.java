package dev.accelbridge.tools.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.accelbridge.run.PlanJson;
import dev.accelbridge.run.RunPlan;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.reports.store.ResultJson;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Plans the CLI reads: a plan file ({@code run --plan}), and the command line a run stored before plans were data. */
final class PlanFiles {
    private PlanFiles() {
    }

    /**
     * The plan in {@code file}: {@link PlanJson}'s form, alone or as a run records it (with {@code origin} and
     * {@code plan}).
     *
     * @throws AccelbridgeException naming the file when it is missing, not JSON or not a plan that can run
     */
    static RunPlan read(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new AccelbridgeException("Plan file " + file + " does not exist", "give a plan file the dashboard or PlanJson wrote");
        }
        JsonNode n;
        try {
            n = ResultJson.MAPPER.readTree(Files.readString(file));
        } catch (IOException e) {
            throw new AccelbridgeException("Plan file " + file + " is not JSON: " + e.getMessage().lines().findFirst().orElse(""),
                    "give a plan file the dashboard or PlanJson wrote", e);
        }
        if (n == null || !n.isObject()) {
            throw new AccelbridgeException("Plan file " + file + " is not a JSON object", "give a plan file the dashboard or PlanJson wrote");
        }
        return PlanJson.read(n.has("plan") ? n.get("plan") : n);
    }

    /**
     * The plan of a run stored before plans were data: its {@code args} were {@code accelbridge run}'s command line, read
     * again as the CLI reads it.
     *
     * @throws AccelbridgeException when the run stored no command line
     */
    static RunPlan legacy(String recorded) {
        JsonNode args = null;
        try {
            JsonNode n = recorded == null ? null : ResultJson.MAPPER.readTree(recorded);
            args = n == null ? null : n.get("args");
        } catch (IOException e) {
            // not JSON: no command line either
        }
        if (args == null || !args.isArray()) {
            throw new AccelbridgeException("The stored plan of this run cannot be read", "start a new run without --resume");
        }
        RunCommand c = new RunCommand();
        CommandLine cl = new CommandLine(c);
        cl.parseArgs(ResultJson.strings(args).toArray(String[]::new));
        c.spec = cl.getCommandSpec();
        return c.plan();
    }
}
