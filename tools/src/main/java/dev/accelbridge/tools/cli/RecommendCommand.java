package dev.accelbridge.tools.cli;

import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.history.RegressionDetector;
import dev.accelbridge.reports.recommend.DtypeRecommender;
import dev.accelbridge.reports.recommend.Recommendation;
import dev.accelbridge.reports.recommend.RecommendationJson;
import dev.accelbridge.reports.recommend.Recommender;
import dev.accelbridge.reports.recommend.WebGpuPayoff;
import dev.accelbridge.reports.render.Cell;
import dev.accelbridge.reports.render.MatrixBuilder;
import dev.accelbridge.reports.render.Text;
import dev.accelbridge.reports.store.MatrixStore;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code accelbridge recommend}: the fastest backend that passed, per family (or model), host and precision, from the store. */
@Command(name = "recommend", mixinStandardHelpOptions = true,
        description = "Which backend to use for each model family (or model) on each host, per deployment target (native, and "
                + "each browser): the fastest that passed on every model, how much faster or slower than native CPU and "
                + "wasm, and the runner-up. From the store's measurements only.")
public final class RecommendCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common = new CommonOptions();

    @Option(names = "--json", description = "Print a JSON array (one entry per family or model, host, precision and target).")
    boolean json;

    @Option(names = "--per-model", description = "One recommendation per model instead of per family.")
    boolean perModel;

    @Option(names = "--dtypes", description = "Instead: which dtype variant of each model to ship to each backend, target, "
            + "session options and scenario: the fastest with no defect (its stored verdict against its own native CPU run) "
            + "whose user-visible output stays within --within of fp32 run natively on the CPU, and faster than fp32 by its "
            + "speed-up's 95 % interval, else fp32 (a transformers.js folder's variants, or --precision's).")
    boolean dtypes;

    @Option(names = "--within", paramLabel = "C", description = "With --dtypes: how close to fp32 native what users read of a "
            + "variant must stay (its fidelity, never whether the backend computes it right), 0 to 1: a cosine (pooled "
            + "embeddings, a similarity matrix, else the outputs), or for a generation the share of generations giving fp32's "
            + "tokens (default: ${DEFAULT-VALUE}).")
    double within = DtypeRecommender.DEFAULT_MIN_CLOSENESS;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (!(within > 0 && within <= 1)) { // before the store is opened: a flag's problem is said first
            throw new CommandLine.ParameterException(spec.commandLine(), "--within " + within + " is not in (0, 1]: give one such as 0.99");
        }
        try (MatrixStore store = MatrixStore.openReadOnly(common.dbPath())) {
            List<RunResult> results = MatrixBuilder.build(store, Optional.empty(), RegressionDetector.defaults())
                    .cells().stream().map(Cell::result).toList();
            if (dtypes) {
                var recs = DtypeRecommender.recommend(results, within);
                if (json) {
                    out.println(RecommendationJson.dtypeArray(recs));
                } else {
                    // host and model names are a page's and a folder's words: one line each, no escape reaches the terminal
                    recs.forEach(r -> out.println(Text.terminal(r.host() + "  " + r.family() + "/" + r.model() + "  " + r.describe())));
                    if (recs.isEmpty()) {
                        out.println("no model in the store ran in more than one dtype");
                    }
                }
                return Main.OK;
            }
            List<Recommendation> recs = Recommender.recommend(results, perModel);
            if (json) {
                out.println(RecommendationJson.array(recs));
                return Main.OK;
            }
            for (Recommendation r : recs) {
                out.println(Text.terminal(r.host() + "  " + r.family() + (r.model() == null ? "" : "/" + r.model()) + "  "
                        + r.precision().id() + "  " + r.target()));
                out.println("    best:      " + Text.terminal(r.best() == null ? r.note() : RecommendationJson.describe(r.best())));
                out.println("    runner-up: " + Text.terminal(RecommendationJson.describe(r.runnerUp())));
            }
            for (WebGpuPayoff p : WebGpuPayoff.of(results)) { // where the store holds the width sweep on WebGPU
                out.println(Text.terminal(p.host() + "  where WebGPU pays off  " + p.lane().key() + " on " + p.adapter()));
                out.println("    " + Text.terminal(p.describe()));
            }
            return Main.OK;
        }
    }
}
