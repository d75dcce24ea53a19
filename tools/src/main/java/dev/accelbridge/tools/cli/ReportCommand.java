package dev.accelbridge.tools.cli;

import dev.accelbridge.reports.render.ReportWriter;
import dev.accelbridge.reports.history.RegressionDetector;
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

    @Option(names = "--regression-threshold", paramLabel = "FRACTION", converter = Converters.Fraction.class,
            description = "Smallest slowdown flagged as a regression, e.g. 0.1 or 10%% (default 10%%); it must also exceed the cell's run-to-run noise.")
    double regressionThreshold = 0.10;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        try (MatrixStore store = MatrixStore.openReadOnly(common.dbPath())) {
            long t0 = System.nanoTime();
            List<Path> files = ReportWriter.write(store, Optional.ofNullable(run), out,
                    RegressionDetector.defaults().withThreshold(regressionThreshold)).files();
            files.forEach(f -> spec.commandLine().getOut().println(f.toAbsolutePath()));
            spec.commandLine().getErr().printf("rendered in %.0f ms%n", (System.nanoTime() - t0) / 1e6);
            return Main.OK;
        }
    }
}
