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
            "pixels=4x3x64x64", Precision.FP16, 4, BackendId.WEBGPU, new LaneId(BrowserKind.CHROMIUM_SHELL, "141", "1.22.0"));

    @Test
    void everyComponentOfTheCaseIsOneDimensionWithItsOwnNameAndColumn() {
        // one per component of the case, and the lane's versions (its browser's major, its runtime's version) after it
        assertThat(Dimensions.ALL).hasSize(CaseId.class.getRecordComponents().length + Dimensions.VERSIONS.size());
        assertThat(Dimensions.ALL.subList(Dimensions.ALL.indexOf(Dimensions.LANE) + 1, Dimensions.ALL.size()))
                .containsExactlyElementsOf(Dimensions.VERSIONS);
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
        assertThat(Dimensions.BROWSER_MAJOR.value(CASE)).isEqualTo("141");
        assertThat(Dimensions.ORT_WEB_VERSION.value(CASE)).isEqualTo("1.22.0");
        assertThat(Dimensions.ORT_VERSION.value(CASE)).isNull();
        assertThat(CASE.key()).endsWith("/webgpu/chromium-shell@141+ort-web@1.22.0");
        CaseId nativeCase = CASE.withRequested(BackendId.CPU).inLane(LaneId.nativeAt("1.29.0"));
        Map<Dimension<?>, String> nat = new HashMap<>();
        Dimensions.ALL.forEach(d -> nat.put(d, d.text(nativeCase)));
        assertThat(nat.get(Dimensions.ORT_VERSION)).isEqualTo("1.29.0");
        assertThat(nat.get(Dimensions.ORT_WEB_VERSION)).isNull();
        assertThat(Dimensions.read(nat::get)).isEqualTo(nativeCase);
    }

    @Test
    void aLaneVersionIsAVersionAndABrowserVersionItsMajor() {
        assertThatThrownBy(() -> new LaneId(BrowserKind.CHROMIUM, "156.0.8078.73", null)).hasMessageContaining("major version");
        assertThatThrownBy(() -> new LaneId(BrowserKind.CHROMIUM, null, "../../etc")).hasMessageContaining("not a version");
        assertThatThrownBy(() -> new LaneId(null, "153", "1.29.0")).hasMessageContaining("native lane");
        assertThat(LaneId.majorOf("153.7.0esr")).isEqualTo("153");
        assertThat(LaneId.majorOf("unknown")).isNull();
        assertThat(LaneId.of(BrowserKind.CHROMIUM).key()).isEqualTo("chromium");
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
                .containsExactly("suite", "model", "precision", "batchSize", "requested", "lane", "browserMajor", "ortWebVersion",
                        "ortVersion");
    }
}
