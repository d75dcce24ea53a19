package dev.accelbridge.tools.cli;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.Precision;
import dev.accelbridge.reports.predict.Prediction;
import dev.accelbridge.reports.predict.Predictions;
import dev.accelbridge.reports.store.MatrixStore;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/**
 * {@code accelbridge predict}: an estimated p50 for a model on a backend the store has not measured it on, labelled as
 * a prediction, with the leave-one-out error of such predictions on the same host. Nothing is written to the store.
 */
@Command(name = "predict", mixinStandardHelpOptions = true,
        description = "PREDICT (never measure) the p50 of a model on a backend from what the store measured on the same host: "
                + "the model on other backends and the backend on other models. Prints the leave-one-out error of such "
                + "predictions on that host. Nothing is stored.")
public final class PredictCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common = new CommonOptions();

    @Option(names = "--model", required = true, paramLabel = "NAME", description = "The model: its name or suite/model, as stored.")
    String model;

    @Option(names = "--backend", required = true, paramLabel = "ID", converter = Converters.Backend.class,
            description = "The backend to predict for: ${COMPLETION-CANDIDATES}.")
    BackendId backend;

    @Option(names = "--browser", paramLabel = "NAME", converter = Converters.Browser.class,
            description = "The browser lane of a browser backend (default chromium).")
    BrowserKind browser;

    @Option(names = "--host", paramLabel = "NAME", description = "The host: its name or fingerprint (default: the host with most results).")
    String host;

    @Option(names = "--precision", paramLabel = "P", converter = Converters.PrecisionId.class, description = "fp32 (default), fp16, int8, q8, uint8, q4, q4f16 or bnb4.")
    Precision precision = Precision.FP32;

    @Option(names = "--batch", paramLabel = "N", converter = Converters.BatchSize.class, description = "The batch size (default 1).")
    int batch = 1;

    @Option(names = "--json", description = "Print the prediction as JSON (\"kind\": \"prediction\").")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        try (MatrixStore store = MatrixStore.openReadOnly(common.dbPath())) {
            Prediction p = Predictions.answer(store.allResults(), model, precision, batch, backend, browser, host);
            out.print(json ? Predictions.json(p).toPrettyString() + System.lineSeparator() : Predictions.describe(p));
            return Main.OK;
        }
    }
}
