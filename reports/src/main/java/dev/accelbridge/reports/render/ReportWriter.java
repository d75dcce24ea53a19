package dev.accelbridge.reports.render;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.reports.ReportsException;
import dev.accelbridge.reports.history.RegressionDetector;
import dev.accelbridge.reports.store.MatrixStore;
import dev.accelbridge.reports.store.ResultJson;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.Optional;

/** Writes {@code report.html}, {@code report.md}, {@code matrix.json} and {@code junit.xml} from the store. */
@PublicApi
public final class ReportWriter {
    private ReportWriter() {
    }

    /** What was written, and the matrix it was written from (for the exit policy). */
    public record Written(List<Path> files, Matrix matrix) {
    }

    /** {@link #write} with the default regression detector; returns the four paths. */
    public static List<Path> writeAll(MatrixStore store, Optional<String> runId, Path outDir) {
        return write(store, runId, outDir, RegressionDetector.defaults()).files();
    }

    /**
     * Writes all four reports into {@code outDir} (created when absent).
     *
     * @throws ReportsException when the folder cannot be written
     */
    public static Written write(MatrixStore store, Optional<String> runId, Path outDir, RegressionDetector detector) {
        Matrix m = MatrixBuilder.build(store, runId, detector);
        return new Written(write(m, outDir), m);
    }

    /**
     * Writes a built matrix. The HTML report (half the rendering time: 300 of 570 ms for a sweep of 358 cases) renders on
     * a second thread while the other three render here; a {@link Matrix} is an immutable value.
     */
    public static List<Path> write(Matrix m, Path outDir) {
        try {
            Files.createDirectories(outDir);
            Path html = outDir.resolve("report.html");
            Path md = outDir.resolve("report.md");
            Path json = outDir.resolve("matrix.json");
            Path junit = outDir.resolve("junit.xml");
            CompletableFuture<String> htmlText = CompletableFuture.supplyAsync(() -> HtmlRenderer.render(m));
            Files.writeString(md, MarkdownRenderer.render(m), StandardCharsets.UTF_8);
            Files.writeString(json, ResultJson.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(JsonRenderer.render(m)),
                    StandardCharsets.UTF_8);
            Files.writeString(junit, JUnitXmlRenderer.render(m), StandardCharsets.UTF_8);
            Files.writeString(html, joined(htmlText), StandardCharsets.UTF_8);
            return List.of(html, md, json, junit);
        } catch (IOException e) {
            throw new ReportsException("Cannot write the reports into " + outDir + ": " + e.getMessage(),
                    "choose a writable folder with --out DIR", e);
        }
    }

    private static String joined(CompletableFuture<String> f) {
        try {
            return f.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }
}
