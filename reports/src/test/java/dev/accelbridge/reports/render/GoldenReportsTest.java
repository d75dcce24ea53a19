package dev.accelbridge.reports.render;

import dev.accelbridge.core.Analysis;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Bisection;
import dev.accelbridge.core.ComputedPrecision;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.LoadDiagnosis;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Placement;
import dev.accelbridge.core.Readout;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.history.RegressionDetector;
import dev.accelbridge.reports.recommend.DtypeRecommender;
import dev.accelbridge.reports.recommend.DtypeRecommenderTest;
import dev.accelbridge.reports.recommend.RecommendationJson;
import dev.accelbridge.reports.recommend.Recommender;
import dev.accelbridge.reports.store.MatrixStore;
import dev.accelbridge.reports.store.ResultJson;
import dev.accelbridge.reports.store.StoreExport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.accelbridge.reports.Fixtures.MEASURED_MEMORY;
import static dev.accelbridge.reports.Fixtures.chromiumProv;
import static dev.accelbridge.reports.Fixtures.fellBack;
import static dev.accelbridge.reports.Fixtures.host;
import static dev.accelbridge.reports.Fixtures.nativeProv;
import static dev.accelbridge.reports.Fixtures.notRun;
import static dev.accelbridge.reports.Fixtures.passed;
import static dev.accelbridge.reports.Fixtures.samples;
import static dev.accelbridge.reports.Fixtures.t;
import static dev.accelbridge.reports.Fixtures.wrong;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every output the reports module writes from one store (the four reports, the export, the recommendations' JSON) is
 * byte for byte the committed one, once the run ids and the instants the store stamps at write time are named in place
 * ({@code RUN-1}, {@code <now>}). It holds a change to how the outputs are made (records serialised whole instead of
 * fields put by hand) to making the same bytes; a change to what they say is written again, and reviewed as a diff, with
 * {@code ACCELBRIDGE_WRITE_DOCS=1}.
 */
class GoldenReportsTest {
    private static final Path GOLDEN = Path.of("src", "test", "resources", "golden");
    private static final String HOW = "the golden outputs are written again with ACCELBRIDGE_WRITE_DOCS=1 ./mvnw -q -pl reports "
            + "test -Dtest=GoldenReportsTest; review the diff";
    private static final Pattern RUN_ID = Pattern.compile("\\d{8}T\\d{6}Z-[0-9a-f]{8}");
    /** An instant the store stamps as it writes (the fixture's own are all on 2026-11-20). */
    private static final Pattern NOW = Pattern.compile("(?!2026-11-20)\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?Z");

    @TempDir
    Path dir;

    @Test
    void everyOutputIsTheCommittedOne() throws Exception {
        Map<String, String> outputs = new LinkedHashMap<>();
        Path out = dir.resolve("out");
        try (MatrixStore s = MatrixStore.open(dir.resolve("m.duckdb"))) {
            String last = ReportFixture.fill(s);
            HostInfo h = host("alpha");
            String more = s.beginRun(h, Map.of("accelbridge", "0.1.0"), "{}");
            LoadDiagnosis d = LoadDiagnosis.of("ONNX Runtime 1.29.0", List.of("all", "extended", "basic"), "disabled",
                    "in node (ln_scale/Mul_7/LayerNormFusion/)");
            RunResult refused = notRun(more, t(400), ModelFamily.OTHER, "ln_fp16", BackendId.CPU, Status.FAILED,
                    "load: " + d.sentence(), nativeProv(h));
            s.write(refused.withAnalysis(refused.analysis().withLoad(d)));
            s.write(notRun(more, t(401), ModelFamily.OTHER, "ln_fp16", BackendId.WASM, Status.UNSUPPORTED,
                    "no kernel for 'Foo' <\"x\"> & _y_", chromiumProv(h, false)));
            // a fallback from a backend that worked in the runs before (its cost), its GPU memory, and the same work measured
            // apart in the run (a position spread)
            RunResult gpu = fellBack(more, t(402), h, ModelFamily.TEXT, "bert-tiny", BackendId.WEBGPU, BackendId.WASM,
                    chromiumProv(h, false), samples(5.8, 0.03, 30, 403));
            s.write(RunResult.of(gpu.runId(), gpu.startedAt(), gpu.id(), gpu.outcome(), gpu.status(), gpu.reason(), gpu.provenance(), MEASURED_MEMORY, gpu.fallbackPath(), gpu.warnings()));
            s.write(passed(more, t(403), h, ModelFamily.TEXT, "bert-tiny", BackendId.WASM, chromiumProv(h, false),
                    samples(3.6, 0.03, 30, 404)));
            // every part of a drill-down, on a wrong output
            s.write(wrong(more, t(404), ModelFamily.VISION, "pool-net", BackendId.WEBNN_CPU, chromiumProv(h, true),
                    samples(4, 0.1, 5, 405)).withAnalysis(withAttributes(DrillDownRenderTest.analysis())
                    .withPlacement(new Placement("WebNNExecutionProvider", false, List.of("pool/AveragePool_1"), "its verbose log"))
                    .withReadout(new Readout(Readout.Kind.POOLED_EMBEDDING, 4, 0.987, 0.03, 4, "a note"))
                    .withComputed(new ComputedPrecision(2, List.of("MatMul_3"), "the casts ONNX Runtime inserted"))));
            s.finishRun(more);
            Path moreOut = dir.resolve("more");
            ReportWriter.write(s, Optional.of(more), moreOut, RegressionDetector.defaults());
            outputs.put("matrix-more.json", Files.readString(moreOut.resolve("matrix.json"), StandardCharsets.UTF_8));
            outputs.put("report-more.md", Files.readString(moreOut.resolve("report.md"), StandardCharsets.UTF_8));
            ReportWriter.write(s, Optional.of(last), out, RegressionDetector.defaults());
            for (String f : List.of("report.md", "report.html", "matrix.json", "junit.xml")) {
                outputs.put(f, Files.readString(out.resolve(f), StandardCharsets.UTF_8));
            }
            var pretty = ResultJson.MAPPER.writerWithDefaultPrettyPrinter();
            outputs.put("export.json", pretty.writeValueAsString(StoreExport.export(s)));
            List<RunResult> all = s.allResults();
            outputs.put("recommend.json", pretty.writeValueAsString(RecommendationJson.array(Recommender.recommend(all, false))));
            outputs.put("recommend-models.json", pretty.writeValueAsString(RecommendationJson.array(Recommender.recommend(all, true))));
            List<RunResult> first = s.results(s.runs().get(0).runId());
            outputs.put("compare.json", pretty.writeValueAsString(ComparisonJson.json(Comparison.of(Comparison.By.RUN, "first", "last", first,
                    s.results(last)))));
            outputs.put("compare-absent.json", pretty.writeValueAsString(ComparisonJson.json(Comparison.of(Comparison.By.RUN, "first", "more", first,
                    s.results(more)))));
            outputs.put("recommend-dtype.json", pretty.writeValueAsString(RecommendationJson.dtypeArray(DtypeRecommender.recommend(DtypeRecommenderTest.store(), 0.98))));
        }
        boolean write = "1".equals(System.getenv("ACCELBRIDGE_WRITE_DOCS"));
        Path actual = Files.createDirectories(Path.of("target", "golden-actual"));
        for (Map.Entry<String, String> e : outputs.entrySet()) {
            String now = normalised(e.getValue());
            Files.writeString(actual.resolve(e.getKey()), now, StandardCharsets.UTF_8); // to diff against when it differs
            // the page carries its charts' script inline (1.1 MB): its digest is committed, the page itself is written above
            boolean digested = e.getKey().endsWith(".html");
            String kept = digested ? sha256(now) + "\n" : now;
            Path file = GOLDEN.resolve(e.getKey() + (digested ? ".sha256" : ""));
            if (write) {
                Files.createDirectories(GOLDEN);
                Files.writeString(file, kept, StandardCharsets.UTF_8);
            }
            assertThat(Files.readString(file, StandardCharsets.UTF_8)).as(e.getKey() + " (as written: target/golden-actual): " + HOW)
                    .isEqualTo(kept);
        }
    }

    private static String sha256(String s) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    }

    /** {@code a} with its bisection's node holding attributes in an order that is not their names' (the model's order). */
    private static Analysis withAttributes(Analysis a) {
        Bisection b = a.bisection();
        Map<String, String> attrs = new LinkedHashMap<>();
        attrs.put("strides", "[1, 1]");
        attrs.put("pads", "[1, 1, 1, 1]");
        attrs.put("kernel_shape", "[3, 3]");
        return a.withBisection(new Bisection(b.outcome(), b.node(), b.opType(), attrs, b.inputShapes(), b.outputShapes(), b.maxAbsErr(),
                b.tolerance(), b.against(), b.backend(), b.path(), b.compared(), b.reproDir(), b.note()));
    }

    /** The text with each run id named by its order of first appearance and each write-time instant as {@code <now>}. */
    static String normalised(String text) {
        Map<String, String> ids = new LinkedHashMap<>();
        Matcher m = RUN_ID.matcher(text);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(b, ids.computeIfAbsent(m.group(), k -> "RUN-" + (ids.size() + 1)));
        }
        m.appendTail(b);
        return NOW.matcher(b).replaceAll("<now>");
    }
}
