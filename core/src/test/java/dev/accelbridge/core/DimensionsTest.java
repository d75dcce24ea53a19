package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DimensionsTest {
    private static final CaseId CASE = new CaseId(ModelFamily.VISION, "convnet", "ab".repeat(32), "images",
            "pixels=4x3x64x64", Precision.FP16, 4, BackendId.WEBGPU, new LaneId(BrowserKind.CHROMIUM_SHELL, Map.of("major", "141", "shaderVersion", "2")));

    @Test
    void everyComponentOfTheCaseIsOneDimensionWithItsOwnNameAndColumn() {
        // one per component of the case, and the lane's versions (one per axis on the class path) after them
        assertThat(Dimensions.all()).hasSize(CaseId.class.getRecordComponents().length + VersionAxes.all().size());
        assertThat(Dimensions.all().subList(Dimensions.all().indexOf(Dimensions.RUNTIME_OPTIONS) + 1, Dimensions.all().size()))
                .containsExactlyElementsOf(VersionAxes.dimensions());
        Set<String> names = new HashSet<>();
        Set<String> columns = new HashSet<>();
        for (Dimension<?> d : Dimensions.all()) {
            assertThat(names.add(d.name())).as("name %s", d).isTrue();
            assertThat(columns.add(d.column())).as("column %s", d.column()).isTrue();
            d.aliases().forEach(a -> assertThat(names.add(a)).as("alias %s", a).isTrue());
        }
        assertThat(Dimensions.BATCH_SIZE.column()).isEqualTo("batch_size");
        assertThat(Dimensions.MODEL_SHA256.column()).isEqualTo("model_sha256");
        assertThat(TestAxes.Shader.DIMENSION.column()).isEqualTo("shader_version");
    }

    @Test
    void aCaseWrittenByItsDimensionsReadsBackTheSame() {
        Map<Dimension<?>, String> written = new HashMap<>();
        Dimensions.all().forEach(d -> written.put(d, d.text(CASE)));
        assertThat(Dimensions.read(written::get)).isEqualTo(CASE);
        assertThat(Dimensions.BATCH_SIZE.value(CASE)).isEqualTo(4);
        assertThat(Dimensions.PRECISION.value(CASE)).isEqualTo("fp16");
        assertThat(TestAxes.Major.DIMENSION.value(CASE)).isEqualTo("141");
        assertThat(TestAxes.Shader.DIMENSION.value(CASE)).isEqualTo("2");
        assertThat(TestAxes.Engine.DIMENSION.value(CASE)).isNull();
        // each axis writes its own part of the key, in the axes' order
        assertThat(CASE.key()).endsWith("/webgpu/chromium-shell@141+shader@2");
        CaseId nativeCase = CASE.withRequested(BackendId.CPU).inLane(new LaneId(null, Map.of("engineVersion", "1.29.0")));
        assertThat(nativeCase.key()).endsWith("/cpu/native+engine@1.29.0");
        Map<Dimension<?>, String> nat = new HashMap<>();
        Dimensions.all().forEach(d -> nat.put(d, d.text(nativeCase)));
        assertThat(nat.get(TestAxes.Engine.DIMENSION)).isEqualTo("1.29.0");
        assertThat(nat.get(TestAxes.Shader.DIMENSION)).isNull();
        assertThat(Dimensions.read(nat::get)).isEqualTo(nativeCase);
    }

    @Test
    void aLaneVersionIsAVersionAndABrowserVersionItsMajor() {
        assertThatThrownBy(() -> new LaneId(BrowserKind.CHROMIUM, Map.of("major", "156.0.8078.73"))).hasMessageContaining("major version");
        assertThatThrownBy(() -> new LaneId(BrowserKind.CHROMIUM, Map.of("shaderVersion", "../../etc"))).hasMessageContaining("not a version");
        assertThatThrownBy(() -> new LaneId(null, Map.of("major", "153"))).hasMessageContaining("native lane");
        assertThatThrownBy(() -> new LaneId(BrowserKind.CHROMIUM, Map.of("engineVersion", "1.0.0"))).hasMessageContaining("browser lane");
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
                .containsExactly("suite", "model", "precision", "batchSize", "requested", "lane", "scenario", "runtimeOptions", "major", "shaderVersion",
                        "engineVersion");
        assertThat(Dimensions.named("shader")).contains(TestAxes.Shader.DIMENSION);
    }

    @Test
    void aLaneSweepsEachAxisOfItsSideAndWritesTheOptionsThatRunItAgain() {
        LaneId shell = new BrowserSpec(BrowserKind.CHROMIUM_SHELL, "141").lane();
        assertThat(shell.key()).isEqualTo("chromium-shell@141");
        assertThat(BrowserSpec.of(shell)).isEqualTo(new BrowserSpec(BrowserKind.CHROMIUM_SHELL, "141"));
        var lanes = LaneId.product(List.of(shell, LaneId.NATIVE), Map.of("shaderVersion", List.of("1", "2"), "engineVersion", List.of("9.0")));
        assertThat(lanes).extracting(LaneId::key).containsExactlyInAnyOrder("chromium-shell@141+shader@1", "chromium-shell@141+shader@2",
                "native+engine@9.0");
        // the major within the browser's option, a flagged axis by its flag, an axis without one by --versions
        assertThat(LaneId.runOptions(lanes)).isEqualTo("--browser chromium-shell@141 --versions shaderVersion=1,2 --engine 9.0");
        assertThat(LaneId.of(BrowserKind.CHROMIUM_SHELL).covers(lanes.get(0))).isTrue();
        assertThat(lanes.get(0).covers(lanes.get(1))).isFalse();
        assertThat(lanes.get(0).without(new TestAxes.Shader())).isEqualTo(shell);
    }

    @Test
    void twoAxesMayNotShareAName() {
        assertThatThrownBy(() -> VersionAxes.load(List.of(new TestAxes.Shader(), new TestAxes.Shader())))
                .hasMessageContaining("Two version axes are called shaderVersion");
        assertThatThrownBy(() -> Dimension.version("ort_web; DROP", "x", null)).hasMessageContaining("camelCase");
    }
}
