package dev.accelbridge.bisect;

import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.LoadDiagnosis;
import dev.accelbridge.reports.render.Text;
import dev.accelbridge.suites.onnx.OnnxTensors;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The single-graph repro of a load a graph optimizer breaks ({@link LoadDiagnosis#repro()}), written for the report as a
 * bisection's repro is: {@code model.onnx} (the optimizer's pattern alone, its inputs declared with the types the runtime
 * inferred) and a Markdown summary saying how to see it fail. A load failure needs no input data, so none is written.
 */
public final class LoadRepros {
    private LoadRepros() {
    }

    /** Writes the repro of {@code d} for the case {@code id} under {@code root}; its folder, or empty when {@code d} has none. */
    public static Optional<Path> write(Path root, CaseId id, LoadDiagnosis d) {
        if (d.repro() == null) {
            return Optional.empty();
        }
        Path dir = Repros.folderFor(root, id).resolveSibling(Repros.folderFor(root, id).getFileName() + "-load");
        try {
            Files.createDirectories(dir);
            OnnxTensors.writeAtomically(dir.resolve("model.onnx"), d.repro().model(), "load repro model");
            Files.writeString(dir.resolve("README.md"), readme(id, d, dir), StandardCharsets.UTF_8);
            return Optional.of(dir);
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // the diagnosis stands without its repro
        }
    }

    static String readme(CaseId id, LoadDiagnosis d, Path dir) {
        String failed = d.failsAt().get(0);
        return "# " + md(d.optimizer()) + " makes a graph " + md(d.runtime()) + " rejects\n\n"
                + "Found by Accelbridge's load diagnosis of model " + md(id.model()) + " (sha256 " + md(id.modelSha256()) + "), "
                + id.precision().id() + ": it " + md(d.sentence()) + ".\n\n"
                + "`model.onnx` holds the " + d.repro().nodes() + " nodes around '" + md(d.rejectedFrom()) + "', the node "
                + md(d.optimizer()) + " made the rejected node from. Alone, it fails to load at optimization=" + failed
                + " naming " + md(d.optimizer()) + " and loads at optimization=" + d.loadsAt() + ".\n\n## Reproduce\n\n```\n"
                + "accelbridge run --model " + dir.toAbsolutePath() + " --backends cpu\n```\n\nfails to load; with `--runtime-option "
                + "optimization=" + d.loadsAt() + "` it loads.\n";
    }

    private static String md(String v) {
        return Text.markdown(v);
    }
}
