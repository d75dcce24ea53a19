package dev.accelbridge.core;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The matrix's dimensions, each declared once, in {@link CaseId}'s order. Everything that stores, writes, reads,
 * filters or shows a case's identity iterates over {@link #ALL}; adding a dimension is a component of {@link CaseId} (or
 * of the {@link LaneId} within it, for what belongs to where a case runs: the browser's and the runtimes' versions),
 * its descriptor here (name, column, parse, format, the value older records take), the code that feeds it, and one
 * store migration.
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
    /** Native, or a typed browser; native for records without one. Its versions are the dimensions after it. */
    public static final Dimension<LaneId> LANE = Dimension.builder("lane", CaseId::lane)
            .setText(LaneId::parse, LaneId::id).optLabel("lane").optAbsent(LaneId.NATIVE).optFacet().optAliases("browser")
            .optFlag("--browser").build();

    /**
     * The browser's major version ({@code 153}), part of the lane: {@code --browser chromium-shell@141} sweeps it. A record
     * from before it was a dimension takes its provenance's build major (the store's migration 9 and the export's step 8).
     */
    public static final Dimension<String> BROWSER_MAJOR = Dimension.builder("browserMajor", (CaseId id) -> id.lane().browserMajor())
            .setText(Function.identity(), Function.identity()).optLabel("browser version").optNullable().optFacet()
            .optAliases("browser-version").optFlag("--browser").build();
    /** onnxruntime-web's version in a browser lane ({@code --ort-web 1.22.0,1.30.0}); null natively. */
    public static final Dimension<String> ORT_WEB_VERSION = Dimension.builder("ortWebVersion", (CaseId id) -> id.lane().ortWebVersion())
            .setText(Function.identity(), Function.identity()).optLabel("onnxruntime-web version").optNullable().optFacet()
            .optAliases("ort-web").optFlag("--ort-web").build();
    /** ONNX Runtime's version in the native lane ({@code --ort 1.22.0,1.29.0}); null in a browser. */
    public static final Dimension<String> ORT_VERSION = Dimension.builder("ortVersion", (CaseId id) -> id.lane().ortVersion())
            .setText(Function.identity(), Function.identity()).optLabel("ONNX Runtime version").optNullable().optFacet()
            .optAliases("ort").optFlag("--ort").build();

    /** Every dimension, in {@link CaseId}'s component order (the lane's parts after the lane). */
    public static final List<Dimension<?>> ALL = List.of(SUITE, MODEL, MODEL_SHA256, INPUT_SET, INPUT_SHAPES, PRECISION,
            BATCH_SIZE, REQUESTED, LANE, BROWSER_MAJOR, ORT_WEB_VERSION, ORT_VERSION);

    /** The dimensions that are versions (of a browser or a runtime): what the version views compare by. */
    public static final List<Dimension<String>> VERSIONS = List.of(BROWSER_MAJOR, ORT_WEB_VERSION, ORT_VERSION);

    private Dimensions() {
    }

    /** The dimensions the dashboard filters by, in {@link #ALL}'s order. */
    public static List<Dimension<?>> facets() {
        return ALL.stream().filter(Dimension::facet).toList();
    }

    /** The dimension called {@code name} (its name or an alias), if any. */
    public static Optional<Dimension<?>> named(String name) {
        return ALL.stream().filter(d -> d.isCalled(name)).findFirst();
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
        lane = lane.withBrowserMajor(BROWSER_MAJOR.parse(text.apply(BROWSER_MAJOR)))
                .withRuntime((lane.isNative() ? ORT_VERSION : ORT_WEB_VERSION).parse(text.apply(lane.isNative() ? ORT_VERSION : ORT_WEB_VERSION)));
        return new CaseId(SUITE.parse(text.apply(SUITE)), MODEL.parse(text.apply(MODEL)),
                MODEL_SHA256.parse(text.apply(MODEL_SHA256)), INPUT_SET.parse(text.apply(INPUT_SET)),
                INPUT_SHAPES.parse(text.apply(INPUT_SHAPES)), PRECISION.parse(text.apply(PRECISION)),
                BATCH_SIZE.parse(text.apply(BATCH_SIZE)), REQUESTED.parse(text.apply(REQUESTED)), lane);
    }
}
