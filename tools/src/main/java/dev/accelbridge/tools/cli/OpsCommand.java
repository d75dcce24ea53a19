package dev.accelbridge.tools.cli;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.reports.ops.OpTable;
import dev.accelbridge.reports.store.MatrixStore;
import dev.accelbridge.reports.store.ResultJson;
import dev.accelbridge.suites.ops.OpKernels;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Predicate;

/** {@code accelbridge ops}: the op table from the store (op × backend and lane), or what changed against another store. */
@Command(name = "ops", mixinStandardHelpOptions = true,
        description = "The op suite's table from the store (run it with: accelbridge run --suites ops): per op and per "
                + "backend and lane, passed / placed on CPU / wrong / failed / unsupported over its variants, the first "
                + "variant that did not pass with its reason and the command that runs it again.")
public final class OpsCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common = new CommonOptions();

    @Option(names = "--backend", paramLabel = "BACKEND", description = "Only this backend asked for (wasm, webgpu, webnn-cpu, cpu, ...).")
    String backend;

    @Option(names = "--browser", paramLabel = "LANE", description = "Only this lane (chromium, chromium-shell, firefox, native).")
    String browser;

    @Option(names = "--against", paramLabel = "STORE", description = "Another store (another browser, machine or version): "
            + "print what changed op by op from it to this one.")
    Path against;

    @Option(names = "--json", description = "Print the table as JSON.")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (against != null && !Files.isRegularFile(against)) {
            throw new AccelbridgeException("--against " + against + " is not a store file", "name a .duckdb file a run wrote");
        }
        Predicate<CaseId> keep = id -> (backend == null || id.requested().id().equals(backend))
                && (browser == null || id.lane().id().equals(browser));
        OpTable table = table(common.dbPath(), keep, OpTable::column);
        if (against != null) {
            // two stores of other versions (an upgrade) compare column by column without the versions
            List<String> changes = table(common.dbPath(), keep, OpTable::laneColumn).changesFrom(table(against, keep, OpTable::laneColumn));
            if (json) {
                out.println(ResultJson.MAPPER.valueToTree(changes));
            } else {
                changes.forEach(out::println);
                out.printf("%d changes from %s to %s%n", changes.size(), against, common.dbPath());
            }
            return Main.OK;
        }
        if (table.rows().isEmpty()) {
            out.println("No op-suite results in " + common.dbPath() + (backend != null || browser != null ? " for that filter" : "")
                    + ": run accelbridge run --suites ops first.");
            return Main.OK;
        }
        out.print(json ? table.toJson() + "\n" : table.render());
        if (!json) {
            declaredAgainstMeasured(table, out);
        }
        return Main.OK;
    }

    /**
     * Where what onnxruntime-web declares (its kernel registrations, {@link OpKernels}) and what ran disagree: ops it
     * declares for a backend that were placed on its CPU EP, and ops it does not declare that ran on the backend (within
     * the domains the declaration speaks for, contrib ones by their qualified name).
     */
    private static void declaredAgainstMeasured(OpTable table, PrintWriter out) {
        for (String col : table.columns()) {
            String backend = col.substring(0, col.indexOf('@'));
            String kernels = backend.startsWith("webnn") ? "webnn" : backend; // one WebNN op map for every device
            java.util.Set<String> declared = OpKernels.declared(kernels);
            if (declared.isEmpty()) {
                continue;
            }
            List<String> cpu = new java.util.ArrayList<>();
            List<String> undeclared = new java.util.ArrayList<>();
            for (OpTable.Row r : table.rows()) {
                OpTable.Cell c = r.cells().get(col);
                if (!OpKernels.covers(kernels, r.opType())) {
                    continue;
                }
                if (c != null && c.verdict() == OpTable.Verdict.CPU && declared.contains(r.opType())) {
                    cpu.add(r.opType());
                } else if (c != null && c.counts().getOrDefault(OpTable.Verdict.PASSED, 0) > 0 && !declared.contains(r.opType())) {
                    undeclared.add(r.opType());
                }
            }
            out.printf("%n%s against onnxruntime-web's declared kernels (%s):%n  declared but placed on CPU: %s%n"
                            + "  not declared but ran on the backend: %s%n", col, String.join("; ", OpKernels.sources(kernels)), cpu.isEmpty() ? "none" : String.join(", ", cpu),
                    undeclared.isEmpty() ? "none" : String.join(", ", undeclared));
        }
    }

    private static OpTable table(Path store, Predicate<CaseId> keep, java.util.function.Function<CaseId, String> columns) {
        try (MatrixStore s = MatrixStore.openReadOnly(store)) {
            return OpTable.of(s.allResults(), keep, columns);
        }
    }
}
