package dev.accelbridge.bisect;

import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.Bisection;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.Tolerance;
import dev.accelbridge.reports.render.Text;
import dev.accelbridge.suites.FeedOptions;
import dev.accelbridge.suites.ModelDirectory;
import dev.accelbridge.suites.ModelLoad;
import dev.accelbridge.suites.surgery.NodeRepro;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The single-node repro of a bisection: written in the ONNX test-data layout with a Markdown summary of the
 * environment, then run on the backend again, so the note says whether the node diverges on its own.
 */
public final class Repros {
    private Repros() {
    }

    /** The folder of a case's repro under {@code root}: one per case (model, inputs, precision, batch, backend, lane). */
    public static Path folderFor(Path root, CaseId id) {
        String slug = (id.model() + "-" + id.precision().id() + "-b" + id.batchSize() + "-" + id.requested().id() + "-"
                + id.lane().key()).replaceAll("[^A-Za-z0-9_.-]", "_");
        return root.resolve(slug);
    }

    /**
     * Writes the repro of {@code found} into {@code dir} and runs it once on the backend, comparing with the reference's
     * outputs stored in it.
     *
     * @param given the tolerance given for the model ({@code --tolerance}), written into the folder; null for defaults
     */
    public static Bisection writeAndCheck(Bisector.Found found, ModelCase mc, CaseId id, Path dir, Double given,
                                          BackendProvider provider, Function<DType, Tolerance> tolerance, Integer threads,
                                          Duration timeout) {
        Bisection b = found.bisection();
        if (b.outcome() != Bisection.Outcome.FOUND) {
            return b;
        }
        NodeRepro.Cut cut = NodeRepro.cut(found.model(), found.node(), found.reference());
        Provenance env = found.backendRun() == null ? null : found.backendRun().provenance();
        Map<String, String> refVersions = found.referenceRun() == null ? Map.of() : found.referenceRun().provenance().runtimeVersions();
        cut.write(dir, given, readme(b, mc, id, env, dir, refVersions));
        String note;
        try {
            List<ModelLoad> loaded = ModelDirectory.loadAll(dir, Optional.of(id.family()), FeedOptions.none());
            ModelCase repro = loaded.get(0).cases().get(0);
            Execution e = provider.execute(ExecutionRequest.forOutputs(b.backend(), repro, timeout, threads));
            Parity p;
            try {
                p = Parity.compare(repro.expected().orElseThrow(), e.outputs(), tolerance, "native-cpu");
            } catch (RuntimeException mismatch) {
                return b.withRepro(dir.toAbsolutePath().toString(), "the repro diverges on its own on " + b.backend() + " ("
                        + mismatch.getMessage() + ")");
            }
            note = p.within() ? "the node alone does NOT diverge on " + b.backend() + " (" + p.describe()
                    + "): it diverges only in the whole model (fusion, layout or input placement)"
                    : "the repro diverges on its own on " + b.backend() + " (" + p.describe() + ")";
        } catch (RuntimeException ex) {
            note = "the repro could not be re-run on " + b.backend() + ": " + ex.getMessage();
        }
        return b.withRepro(dir.toAbsolutePath().toString(), note);
    }

    static String readme(Bisection b, ModelCase mc, CaseId id, Provenance env, Path dir, Map<String, String> refVersions) {
        StringBuilder s = new StringBuilder();
        // node, op, model and input names are the model's own text: escaped, never in code spans (where escapes show)
        s.append("# ").append(md(b.node())).append(" (").append(md(b.opType())).append(") diverges on ").append(b.backend()).append("\n\n");
        s.append("Found by Accelbridge's bisection of model ").append(md(id.model())).append(" (sha256 ")
                .append(md(id.modelSha256())).append("), input set ").append(md(id.inputSet())).append(", ")
                .append(id.precision().id()).append(", batch ").append(id.batchSize()).append(": the first node whose outputs leave ")
                .append("the native CPU reference's tolerance while all its inputs are within it.\n\n");
        s.append("| | |\n|---|---|\n");
        row(s, "node", b.node() + " (" + b.opType() + ")");
        row(s, "attributes", b.attributes().isEmpty() ? "none" : String.join(", ", b.attributes().entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).toList()));
        row(s, "inputs", String.join("; ", b.inputShapes()));
        row(s, "outputs", String.join("; ", b.outputShapes()));
        row(s, "max abs error here", String.format(Locale.ROOT, "%.6g (tolerance %.3g, against %s)", b.maxAbsErr(), b.tolerance(), b.against()));
        row(s, "backend", b.backend().id() + " on lane " + id.lane().key());
        if (env != null) {
            row(s, "browser", env.browser() == null ? "none (native)" : env.browserLabel() + (env.driver() == null ? "" : " via " + env.driver()));
            row(s, "adapter", env.adapter() == null ? "n/a" : env.adapter());
            row(s, "runtime", env.runtimeVersions().toString());
            row(s, "execution providers", String.join(", ", env.executionProviders()));
        }
        row(s, "reference", "ONNX Runtime " + refVersions.getOrDefault("onnxruntime", "?") + " CPU (through DJL "
                + refVersions.getOrDefault("djl", "?") + ")");
        s.append("\n## The error along the path to the model's output\n\n| node | op | max abs error |\n|---|---|---|\n");
        for (Bisection.Step st : b.path()) {
            s.append(String.format(Locale.ROOT, "| %s | %s | %.6g |%n", md(st.node()), md(st.opType()), st.maxAbsErr()));
        }
        String lane = id.lane().runOptions().isEmpty() ? "" : " " + id.lane().runOptions();
        s.append("\n## Reproduce\n\n`model.onnx` is the node alone; `test_data_set_0/input_K.pb` are the tensors it received, ")
                .append("`output_K.pb` what the reference computed from them (ONNX test-data layout, so onnxruntime's ")
                .append("`onnx_test_runner` takes the folder too).\n\n```\n")
                .append("accelbridge run --model ").append(dir.toAbsolutePath()).append(" --backends ").append(b.backend().id())
                .append(lane).append("\n```\n\nshows WRONG_OUTPUT where the node diverges on its own; the same with `--backends ")
                .append(b.backend().isBrowser() ? "wasm" : "cpu").append("` is the control.\n");
        return s.toString();
    }

    private static void row(StringBuilder s, String k, String v) {
        s.append("| ").append(k).append(" | ").append(md(v)).append(" |\n");
    }

    private static String md(String v) {
        return Text.markdown(v);
    }
}
