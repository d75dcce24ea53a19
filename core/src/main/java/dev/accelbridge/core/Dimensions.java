package dev.accelbridge.core;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The matrix's dimensions, each declared once, in {@link CaseId}'s order. Everything that stores, writes, reads,
 * filters or shows a case's identity iterates over {@link #all()}; adding a dimension is a component of {@link CaseId} and
 * its descriptor here (name, column, parse, format, the value older records take), the code that feeds it, and one
 * store migration. A version of where a case runs (a browser's, a runtime's) is a {@link VersionAxis} instead: one
 * declaration, its dimension among {@link #all()} and its column added by the store.
 */
public final class Dimensions {
    /** The model family; published as {@code suite} (the name the export and {@code run --json} have always used). */
    public static final Dimension<ModelFamily> SUITE = Dimension.builder("suite", CaseId::family)
            .setText(ModelFamily::parse, ModelFamily::id).optLabel("model family").optFacet().optAliases("family").optFlag("--suites").build();
    /** The model's short name. */
    public static final Dimension<String> MODEL = Dimension.builder("model", CaseId::model)
            .setText(Function.identity(), Function.identity()).optLabel("model").optFacet().optFlag("--model").build();
    /** Hex SHA-256 of the model file; unknown for a legacy import. */
    public static final Dimension<String> MODEL_SHA256 = Dimension.builder("modelSha256", CaseId::modelSha256)
            .setText(Function.identity(), Function.identity()).optLabel("model sha256").optNullable().build();
    /** The input set's name. */
    public static final Dimension<String> INPUT_SET = Dimension.builder("inputSet", CaseId::inputSet)
            .setText(Function.identity(), Function.identity()).optLabel("input set").optNullable().build();
    /** The shapes fed, in graph order. */
    public static final Dimension<String> INPUT_SHAPES = Dimension.builder("inputShapes", CaseId::inputShapes)
            .setText(Function.identity(), Function.identity()).optLabel("input shapes").optNullable().build();
    /** The model variant's precision; fp32 for records that predate it. */
    public static final Dimension<Precision> PRECISION = Dimension.builder("precision", CaseId::precision)
            .setText(Precision::parse, Precision::id).optLabel("precision").optAbsent(Precision.FP32).optFacet()
            .optFlag("--precision").build();
    /** The batch size fed; 1 for records that predate it. */
    public static final Dimension<Integer> BATCH_SIZE = Dimension.builder("batchSize", CaseId::batchSize)
            .setText(Integer::valueOf, String::valueOf).optWhole(1, Limits.MAX_BATCH).optLabel("batch size").optAbsent(1).optFacet()
            .optAliases("batch").optFlag("--batch-sizes").build();
    /** The backend asked for (the first hop of its chain). */
    public static final Dimension<BackendId> REQUESTED = Dimension.builder("requested", CaseId::requested)
            .setText(BackendId::parse, BackendId::id).optLabel("requested backend").optFacet().optAliases("backend")
            .optFlag("--backends").build();
    /** Native, or a typed browser; native for records without one. Its versions are the version axes' dimensions. */
    public static final Dimension<LaneId> LANE = Dimension.builder("lane", CaseId::lane)
            .setText(LaneId::parse, LaneId::id).optLabel("lane").optAbsent(LaneId.NATIVE).optFacet().optAliases("browser")
            .optFlag("--browser").build();

    /** One forward pass or a generation (prompt and new tokens); a single pass for records that predate it. */
    public static final Dimension<ScenarioId> SCENARIO = Dimension.builder("scenario", CaseId::scenario)
            .setText(ScenarioId::parse, ScenarioId::id).optLabel("scenario").optAbsent(ScenarioId.SINGLE_PASS).optFacet().build();

    /** The ONNX Runtime session options that differ from the defaults ({@link RuntimeOption}); the defaults for older records. */
    public static final Dimension<RuntimeOptions> RUNTIME_OPTIONS = Dimension.builder("runtimeOptions", CaseId::runtimeOptions)
            .setText(RuntimeOptions::parse, RuntimeOptions::id).optLabel("runtime options").optAbsent(RuntimeOptions.DEFAULT).optFacet()
            .optAliases("options").optFlag("--runtime-option").build();

    /** The dimensions of {@link CaseId}'s own components, in its order; {@link #all()} adds the version axes'. */
    private static final List<Dimension<?>> OWN = List.of(SUITE, MODEL, MODEL_SHA256, INPUT_SET, INPUT_SHAPES, PRECISION,
            BATCH_SIZE, REQUESTED, LANE, SCENARIO, RUNTIME_OPTIONS);

    private static volatile List<Dimension<?>> all;

    private Dimensions() {
    }

    /**
     * Every dimension: {@link CaseId}'s components in its order, then each {@link VersionAxis}'s on the class path (the
     * lane's versions) in the axes' order.
     */
    public static List<Dimension<?>> all() {
        List<Dimension<?>> a = all;
        if (a == null) {
            List<Dimension<?>> d = new java.util.ArrayList<>(OWN);
            d.addAll(VersionAxes.dimensions());
            all = a = List.copyOf(d);
        }
        return a;
    }

    /** The dimensions the dashboard filters by, in {@link #all()}'s order. */
    public static List<Dimension<?>> facets() {
        return all().stream().filter(Dimension::facet).toList();
    }

    /** The dimension called {@code name} (its name or an alias), if any. */
    public static Optional<Dimension<?>> named(String name) {
        return all().stream().filter(d -> d.isCalled(name)).findFirst();
    }

    /**
     * A case from its written values, as the store's columns and a result's JSON hold them: each dimension's text is
     * parsed by its descriptor, and a missing one takes the value older records have.
     *
     * @param text the written value of a dimension, or null when the record has none
     * @throws AccelbridgeException naming the dimension whose value is missing or not understood
     */
    public static CaseId read(Function<Dimension<?>, String> text) {
        LaneId lane = LANE.parse(text.apply(LANE));
        java.util.Map<String, String> versions = new java.util.HashMap<>();
        for (VersionAxis axis : lane.side().axes()) {
            versions.put(axis.name(), axis.dimension().parse(text.apply(axis.dimension())));
        }
        lane = new LaneId(lane.browser(), versions);
        return new CaseId(SUITE.parse(text.apply(SUITE)), MODEL.parse(text.apply(MODEL)),
                MODEL_SHA256.parse(text.apply(MODEL_SHA256)), INPUT_SET.parse(text.apply(INPUT_SET)),
                INPUT_SHAPES.parse(text.apply(INPUT_SHAPES)), PRECISION.parse(text.apply(PRECISION)),
                BATCH_SIZE.parse(text.apply(BATCH_SIZE)), REQUESTED.parse(text.apply(REQUESTED)), lane,
                SCENARIO.parse(text.apply(SCENARIO)), RUNTIME_OPTIONS.parse(text.apply(RUNTIME_OPTIONS)));
    }
}
