package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DimensionsTest {
    private static final CaseId CASE = new CaseId(ModelFamily.VISION, "convnet", "ab".repeat(32), "images",
            "pixels=4x3x64x64", Precision.FP16, 4, BackendId.WEBGPU, LaneId.of(BrowserKind.CHROMIUM));

    @Test
    void everyComponentOfTheCaseIsOneDimensionWithItsOwnNameAndColumn() {
        assertThat(Dimensions.ALL).hasSize(CaseId.class.getRecordComponents().length);
        Set<String> names = new HashSet<>();
        Set<String> columns = new HashSet<>();
        for (Dimension<?> d : Dimensions.ALL) {
            assertThat(names.add(d.name())).as("name %s", d).isTrue();
            assertThat(columns.add(d.column())).as("column %s", d.column()).isTrue();
            d.aliases().forEach(a -> assertThat(names.add(a)).as("alias %s", a).isTrue());
        }
        assertThat(Dimensions.BATCH_SIZE.column()).isEqualTo("batch_size");
        assertThat(Dimensions.MODEL_SHA256.column()).isEqualTo("model_sha256");
    }

    @Test
    void aCaseWrittenByItsDimensionsReadsBackTheSame() {
        Map<Dimension<?>, String> written = new HashMap<>();
        Dimensions.ALL.forEach(d -> written.put(d, d.text(CASE)));
        assertThat(Dimensions.read(written::get)).isEqualTo(CASE);
        assertThat(Dimensions.BATCH_SIZE.value(CASE)).isEqualTo(4);
        assertThat(Dimensions.PRECISION.value(CASE)).isEqualTo("fp16");
    }

    @Test
    void aRecordThatPredatesADimensionTakesItsOlderValueButARequiredOneIsNamed() {
        Map<Dimension<?>, String> old = new HashMap<>();
        old.put(Dimensions.SUITE, "text");
        old.put(Dimensions.MODEL, "bert");
        old.put(Dimensions.REQUESTED, "cpu");
        CaseId id = Dimensions.read(old::get);
        assertThat(id.precision()).isEqualTo(Precision.FP32);
        assertThat(id.batchSize()).isEqualTo(1);
        assertThat(id.lane()).isEqualTo(LaneId.NATIVE);
        assertThat(id.modelSha256()).isNull();
        old.remove(Dimensions.REQUESTED);
        assertThatThrownBy(() -> Dimensions.read(old::get)).isInstanceOf(AccelbridgeException.class)
                .hasMessageContaining("requested");
    }

    @Test
    void valuesAreCheckedByTheirDescriptor() {
        assertThatThrownBy(() -> Dimensions.BATCH_SIZE.parse("0")).hasMessageContaining("from 1 to " + Limits.MAX_BATCH);
        assertThatThrownBy(() -> Dimensions.BATCH_SIZE.parse("two")).hasMessageContaining("batch size");
        assertThatThrownBy(() -> Dimensions.PRECISION.parse("fp7")).isInstanceOf(AccelbridgeException.class);
        assertThat(Dimensions.LANE.canonical("Chromium")).isEqualTo("chromium");
    }

    @Test
    void olderNamesStillFindTheirDimension() {
        assertThat(Dimensions.named("family")).contains(Dimensions.SUITE);
        assertThat(Dimensions.named("backend")).contains(Dimensions.REQUESTED);
        assertThat(Dimensions.named("browser")).contains(Dimensions.LANE);
        assertThat(Dimensions.named("batch")).contains(Dimensions.BATCH_SIZE);
        assertThat(Dimensions.named("batchSize")).contains(Dimensions.BATCH_SIZE);
        assertThat(Dimensions.named("colour")).isEmpty();
        assertThat(Dimensions.facets()).extracting(Dimension::name)
                .containsExactly("suite", "model", "precision", "batchSize", "requested", "lane");
    }
}
