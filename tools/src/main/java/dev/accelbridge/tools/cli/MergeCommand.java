package dev.accelbridge.tools.cli;

import dev.accelbridge.reports.store.MatrixStore;
import dev.accelbridge.reports.store.StoreExport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code accelbridge merge FILE...}: imports other hosts' exports so one store holds one matrix. */
@Command(name = "merge", mixinStandardHelpOptions = true,
        description = "Imports files written by 'export' on other machines (idempotent per run); the host is a dimension of the matrix.")
public final class MergeCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common = new CommonOptions();

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "Export files.")
    List<Path> files;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        // every file is checked whole before the store is opened: a refused file creates, migrates or changes nothing
        StoreExport.Checked checked = StoreExport.check(files.toArray(Path[]::new));
        try (MatrixStore store = MatrixStore.open(common.dbPath())) {
            StoreExport.MergeSummary s = StoreExport.merge(store, checked);
            spec.commandLine().getOut().printf("merged: %d runs imported, %d already present, %d results, %d hosts%n",
                    s.runsImported(), s.runsSkipped(), s.results(), s.hosts());
            return Main.OK;
        }
    }
}
