package dev.accelbridge.reports.store;

import dev.accelbridge.core.ModelCost;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A model's cost in a real store: kept, read back, unknown where not given, not lost when a merge records the model again. */
class ModelCostStoreTest {
    @TempDir
    Path dir;

    @Test
    void aCostIsKeptAndAModelRecordedAgainWithoutOneKeepsIt() throws Exception {
        String sha = "cd".repeat(32);
        try (MatrixStore s = MatrixStore.open(dir.resolve("m.duckdb"))) {
            s.recordModels(List.of(new ModelEntry(sha, "bert-base-110m", 17, List.of("MatMul"), ModelCost.of(22.3e9, 437_900_000L)),
                    new ModelEntry("ef".repeat(32), "user-model", 17, List.of("Add"))));
            assertThat(s.modelCosts().get(sha).flopsPerItem()).hasValue(22.3e9);
            assertThat(s.modelCosts().get(sha).weightBytes()).hasValue(437_900_000L);
            assertThat(s.modelCosts().get("ef".repeat(32))).isEqualTo(ModelCost.UNKNOWN);
            // what a merged export records: the sha and its ops, nothing of the model's name or cost
            s.recordModels(List.of(new ModelEntry(sha, null, 0, List.of("MatMul", "Add"))));
            assertThat(s.modelCosts().get(sha).flopsPerItem()).hasValue(22.3e9);
            assertThat(s.modelOps().get(sha)).containsExactly("MatMul", "Add");
        }
    }
}
