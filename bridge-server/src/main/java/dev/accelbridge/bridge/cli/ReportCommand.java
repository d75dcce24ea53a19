package dev.accelbridge.bridge.cli;

import dev.accelbridge.reports.render.ReportWriter;
import dev.accelbridge.reports.store.MatrixStore;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code accelbridge report}: renders the matrix from the store. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Writes DIR/report.html (charts inlined, works offline), report.md, matrix.json and junit.xml from the store.")
public final class ReportCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common = new CommonOptions();

    @Option(names = "--out", paramLabel = "DIR", description = "Output folder (default: accelbridge-out).")
    Path out = Path.of("accelbridge-out");

    @Option(names = "--run", paramLabel = "RUN_ID", description = "Only this run (default: the newest result of every cell, all hosts).")
    String run;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        try (MatrixStore store = MatrixStore.open(common.dbPath())) {
            long t0 = System.nanoTime();
            List<Path> files = ReportWriter.writeAll(store, Optional.ofNullable(run), out);
            files.forEach(f -> spec.commandLine().getOut().println(f.toAbsolutePath()));
            spec.commandLine().getErr().printf("rendered in %.0f ms%n", (System.nanoTime() - t0) / 1e6);
            return Main.OK;
        }
    }
}
