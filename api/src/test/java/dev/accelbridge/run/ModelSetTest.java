package dev.accelbridge.run;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.Status;
import dev.accelbridge.suites.FeedOptions;
import dev.accelbridge.suites.ModelDirectory;
import dev.accelbridge.suites.ModelLoad;
import dev.accelbridge.suites.WildModels;
import dev.accelbridge.suites.Batching;
import dev.accelbridge.suites.onnx.GraphBuilder;
import dev.accelbridge.suites.precision.Variants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** What a plan's batch sizes and precisions make of real model files. */
class ModelSetTest {
    @TempDir
    Path tmp;

    private List<ModelCase> load(Path folder) {
        List<ModelCase> out = new ArrayList<>();
        for (ModelLoad m : ModelDirectory.loadAll(folder, Optional.empty(), FeedOptions.none())) {
            assertThat(m.broken()).as(m.problem()).isFalse();
            out.addAll(m.cases());
        }
        return out;
    }

    @Test
    void everyBatchAndPrecisionOfABatchableFp32ModelEachVariantMappedToItsFp32Case() {
        List<ModelCase> base = load(WildModels.unary(tmp, "Relu"));
        ModelSet s = CaseExpansion.expand(base, List.of(), List.of(1, 4), List.of(Precision.FP32, Precision.FP16), new Variants(tmp.resolve("cache")));
        assertThat(s.cases()).hasSize(4);
        assertThat(s.cases()).extracting(c -> dev.accelbridge.suites.Batching.batchOf(c) + "/" + c.precision().id())
                .containsExactly("1/fp32", "4/fp32", "1/fp16", "4/fp16");
        ModelCase fp16b4 = s.cases().get(3);
        assertThat(s.fp32Of().get(fp16b4)).isSameAs(s.cases().get(1));
        assertThat(fp16b4.model().sha256()).isNotEqualTo(s.cases().get(1).model().sha256());
        assertThat(s.notes()).isEmpty();
    }

    /** A batch size within its bound, on a model whose one item is 1 MiB, would hold 4 GiB of inputs: refused before it is built. */
    @Test
    void inputsAboveAQuarterOfTheHeapAreRefusedBeforeAnyBatchIsBuilt() throws Exception {
        GraphBuilder g = new GraphBuilder("wide", 13);
        String x = g.input("x", DType.FLOAT32, "batch", 262_144L);
        g.opInto("Relu", "y", List.of(x));
        g.output("y", DType.FLOAT32, "batch", 262_144L);
        Path wide = Files.createDirectories(tmp.resolve("wide"));
        Files.write(wide.resolve("model.onnx"), g.build("one MiB an item").toByteArray());
        List<ModelCase> base = load(wide);
        CaseExpansion.checkSize(base, List.of(1, 8), List.of(Precision.FP32, Precision.FP16)); // 18 MiB: taken
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> CaseExpansion.checkSize(base, List.of(4096), List.of(Precision.FP32)))
                .hasMessageContaining("1 cases").hasMessageContaining("4096.0 MiB of inputs").hasMessageContaining("a quarter of this JVM's heap");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> CaseExpansion.checkSize(java.util.Collections.nCopies(3_334, base.get(0)),
                List.of(), List.of(Precision.FP32, Precision.FP16, Precision.INT8))).hasMessageContaining("10,002 cases");
    }

    @Test
    void aFixedBatchRunsAtItsOwnBatchAndAShippedFp16ModelIsNotConvertedAgainAndBothSaySo() throws Exception {
        GraphBuilder g = new GraphBuilder("fixed", 1);
        String x = g.input("x", DType.FLOAT32, 2L, 6L);
        g.opInto("MatMul", "y", List.of(x, g.uniform("w", 0.5, 6, 3)));
        g.output("y", DType.FLOAT32, 2L, 3L);
        Path fixed = Files.createDirectories(tmp.resolve("fixed"));
        Files.write(fixed.resolve("model.onnx"), g.build("fixed batch").toByteArray());
        List<ModelCase> base = new ArrayList<>(load(fixed));
        base.addAll(load(WildModels.fp16Weights(tmp)));
        ModelSet s = CaseExpansion.expand(base, List.of(), List.of(1, 4), List.of(Precision.FP32, Precision.INT8),
                new Variants(tmp.resolve("cache")));
        assertThat(s.notes()).anySatisfy(n -> assertThat(n).contains("has a fixed batch of 2").contains("runs at that batch only"));
        assertThat(s.notes()).anySatisfy(n -> assertThat(n).contains("is shipped at fp16").contains("not converted again"));
        assertThat(s.cases()).filteredOn(c -> c.precision() == Precision.FP16).hasSize(2); // batch 1 and 4, as shipped
        assertThat(s.cases()).filteredOn(c -> c.model().name().equals("fixed")).extracting(ModelCase::precision)
                .containsExactly(Precision.FP32, Precision.INT8);
    }

    @Test
    void aModelTheConverterCannotTakeIsRefusedWithTheReasonNotDropped() {
        List<ModelCase> base = load(WildModels.externalWeights(tmp));
        ModelSet s = CaseExpansion.expand(base, List.of(), List.of(1), List.of(Precision.FP32, Precision.FP16), new Variants(tmp.resolve("cache")));
        assertThat(s.cases()).hasSize(1);
        assertThat(s.refused()).singleElement().satisfies(r -> {
            assertThat(r.status()).isEqualTo(Status.UNSUPPORTED);
            assertThat(r.reason()).contains("external data");
            assertThat(r.on(BackendId.WASM, LaneId.NATIVE).precision()).isEqualTo(Precision.FP16);
        });
    }

    /**
     * A transformers.js folder's variants are one model: every variant it ships runs by default, each judged against the
     * fp32 file's case; naming precisions chooses among them, and one it does not ship is derived from fp32.
     */
    @Test
    void aFoldersShippedVariantsAreLinkedToItsFp32CaseAndChosenByPrecision() {
        Path folder = Variants.exportFolder(WildModels.sentenceEncoder(tmp).resolve("model.onnx"), tmp.resolve("shipped"), "BertModel",
                List.of(Precision.Q8, Precision.Q4));
        List<ModelCase> base = load(folder);
        ModelSet all = CaseExpansion.expand(base, List.of(), List.of(), List.of(Precision.FP32), new Variants(tmp.resolve("cache")));
        assertThat(all.cases()).extracting(ModelCase::precision).containsExactly(Precision.FP32, Precision.Q8, Precision.Q4);
        assertThat(all.fp32Of()).hasSize(2).allSatisfy((v, f) -> assertThat(f).isSameAs(all.cases().get(0)));

        ModelSet chosen = CaseExpansion.expand(base, List.of(), List.of(), List.of(Precision.FP32, Precision.Q4, Precision.FP16),
                new Variants(tmp.resolve("cache")));
        assertThat(chosen.cases()).extracting(ModelCase::precision).containsExactly(Precision.FP32, Precision.Q4, Precision.FP16);
        assertThat(chosen.cases().get(1).model().path().getFileName().toString()).as("shipped, not derived").isEqualTo("model_q4.onnx");
        assertThat(chosen.notes()).singleElement().asString().contains("ships a q8 variant too: not run");

        ModelSet batched = CaseExpansion.expand(base, List.of(), List.of(1, 2), List.of(Precision.FP32), new Variants(tmp.resolve("cache")));
        assertThat(batched.cases()).hasSize(6);
        batched.fp32Of().forEach((v, f) -> assertThat(Batching.batchOf(v)).isEqualTo(Batching.batchOf(f)));
    }
}
