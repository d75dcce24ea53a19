package dev.accelbridge.tools.cli;

import dev.accelbridge.reports.store.MatrixStore;
import dev.accelbridge.reports.store.StoreExport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code accelbridge export FILE}: the whole store as one JSON document, to merge on another host. */
@Command(name = "export", mixinStandardHelpOptions = true,
        description = "Writes the store's runs, hosts, probes, results and samples to one JSON file (for 'merge' on another machine).")
public final class ExportCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common = new CommonOptions();

    @Parameters(paramLabel = "FILE", description = "The JSON file to write.")
    Path file;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        try (MatrixStore store = MatrixStore.openReadOnly(common.dbPath())) {
            StoreExport.exportTo(store, file);
            spec.commandLine().getOut().println(file.toAbsolutePath());
            return Main.OK;
        }
    }
}
