package dev.accelbridge.core;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The identity of one case: every dimension of the matrix, and nothing else. The store, history, regression
 * detection, fallback-cost look-ups, renderers and progress all key on it. Each component is described once in
 * {@link Dimensions} (its name, column, parse and format); a new dimension is a component here, its descriptor there,
 * the code that feeds it and one store migration, never a second place.
 *
 * <p>Outcomes (status, timings, the host) are not part of it: the host is the other half of a matrix cell
 * ({@link #cellOn(String)}). Where the case ran is: the lane names the browser's major version and the runtime's version
 * ({@link LaneId}); the browser's full build is provenance.
 *
 * @param family      the model family (suite)
 * @param model       the model's short name
 * @param modelSha256 hex SHA-256 of the exact model file (null when unknown, e.g. an imported legacy row)
 * @param inputSet    the input set's name ({@code sentences}, {@code test_data_set_0})
 * @param inputShapes the shapes fed, {@code name=1x3x64x64;other=1x16} in graph order (null when unknown)
 * @param precision   the precision of the model variant
 * @param batchSize   the batch size fed
 * @param requested   the backend the user asked for (the first hop of its chain)
 * @param lane        native or a typed browser, with the browser's major and the runtime's version
 * @param scenario    one forward pass, or a generation of so many tokens after a prompt of so many
 * @param runtimeOptions the ONNX Runtime session options that differ from the defaults and apply to {@code requested}
 */
public record CaseId(ModelFamily family, String model, String modelSha256, String inputSet, String inputShapes,
                     Precision precision, int batchSize, BackendId requested, LaneId lane, ScenarioId scenario,
                     RuntimeOptions runtimeOptions) {
    /** A case at the default session options. */
    public CaseId(ModelFamily family, String model, String modelSha256, String inputSet, String inputShapes,
                  Precision precision, int batchSize, BackendId requested, LaneId lane, ScenarioId scenario) {
        this(family, model, modelSha256, inputSet, inputShapes, precision, batchSize, requested, lane, scenario, RuntimeOptions.DEFAULT);
    }

    /** A case of one forward pass. */
    public CaseId(ModelFamily family, String model, String modelSha256, String inputSet, String inputShapes,
                  Precision precision, int batchSize, BackendId requested, LaneId lane) {
        this(family, model, modelSha256, inputSet, inputShapes, precision, batchSize, requested, lane, ScenarioId.SINGLE_PASS);
    }

    public CaseId {
        scenario = scenario == null ? ScenarioId.SINGLE_PASS : scenario;
        runtimeOptions = runtimeOptions == null ? RuntimeOptions.DEFAULT : runtimeOptions;
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(precision, "precision");
        Objects.requireNonNull(requested, "requested");
        Objects.requireNonNull(lane, "lane");
        if (batchSize < 1 || batchSize > Limits.MAX_BATCH) {
            // what the store's readers take: a case no reader could read back is refused where it is made
            throw new AccelbridgeException("batch size must be 1.." + Limits.MAX_BATCH + ", got " + batchSize, "give a batch size from 1 to "
                    + Limits.MAX_BATCH);
        }
    }

    /** True for the native CPU case of a model: its reference, what every other case of it is judged against. */
    public boolean isNativeCpu() {
        return requested == BackendId.CPU && lane.side() == LaneSide.NATIVE;
    }

    /** The case of {@code mc} on {@code requested} in {@code lane}, at the model's own precision and batch. */
    public static CaseId of(ModelCase mc, BackendId requested, LaneId lane) {
        return new CaseId(mc.model().family(), mc.model().name(), mc.model().sha256(), mc.inputSet(),
                shapesOf(mc.inputs()), mc.precision(), batchOf(mc.inputs()), requested, lane, mc.scenarioId(), mc.runtimeOptions().on(requested, lane));
    }

    /** {@code name=1x3x64x64;ids=1x16}: the shapes of the tensors in order ({@code name=} alone for a scalar). */
    public static String shapesOf(List<NamedTensor> inputs) {
        return inputs.stream().map(t -> t.name() + "=" + Arrays.stream(t.shape()).mapToObj(Long::toString)
                .collect(Collectors.joining("x"))).collect(Collectors.joining(";"));
    }

    /** The leading dimension of the first input of rank ≥ 2 (the batch by convention), else 1 ({@link #batchOfShapes}). */
    public static int batchOf(List<NamedTensor> inputs) {
        return batchOfShapes(inputs.stream().map(NamedTensor::shape).toList());
    }

    /**
     * The leading dimension of the first shape of rank ≥ 2 (the batch by convention), else 1; a leading dimension past
     * {@link Limits#MAX_BATCH} is rows of one input (70000 points, a long sequence laid out first), not a batch the
     * matrix's batch axis can hold, so it is 1 too: the shapes say it whole.
     */
    public static int batchOfShapes(List<long[]> shapes) {
        for (long[] s : shapes) {
            if (s != null && s.length >= 2) {
                return s[0] >= 1 && s[0] <= Limits.MAX_BATCH ? (int) s[0] : 1;
            }
        }
        return 1;
    }

    /** The same case requested on another backend. */
    public CaseId withRequested(BackendId b) {
        return new CaseId(family, model, modelSha256, inputSet, inputShapes, precision, batchSize, b, lane, scenario, runtimeOptions);
    }

    /** The same case in another lane. */
    public CaseId inLane(LaneId l) {
        return new CaseId(family, model, modelSha256, inputSet, inputShapes, precision, batchSize, requested, l, scenario, runtimeOptions);
    }

    /** The same case at other session options. */
    public CaseId withRuntimeOptions(RuntimeOptions o) {
        return new CaseId(family, model, modelSha256, inputSet, inputShapes, precision, batchSize, requested, lane, scenario, o);
    }

    /** The model-and-input part: what one reference output belongs to (no backend, no lane). */
    public String inputKey() {
        return family.id() + "/" + model + "@" + shortSha() + "/" + inputSet + "[" + (inputShapes == null ? "?" : inputShapes)
                + "]/" + precision.id() + "/b" + batchSize + (scenario.generates() ? "/" + scenario.id().replace(' ', '-') : "");
    }

    /** {@code family/model@sha12/inputSet[shapes]/precision/bN/requested/lane}: a readable, unique key ({@link LaneId#key()}). */
    public String key() {
        return inputKey() + "/" + requested.id() + (runtimeOptions.isDefault() ? "" : "/" + runtimeOptions.id()) + "/" + lane.key();
    }

    /** "suite/model", the matrix's row label. */
    public String row() {
        return family.id() + "/" + model;
    }

    /** "suite/model" with the precision when it is not fp32 ("text/bert fp16"): a batch-scaling curve's label. */
    public String rowAtPrecision() {
        return row() + (precision == Precision.FP32 ? "" : " " + precision.id());
    }

    /**
     * " fp16 b4": the precision when not fp32 and the batch size when not 1, to follow a label ("" for fp32 at batch 1); a
     * decoder's cases add what tells them apart: the generation ("generate p8 n32") or the single step ("step past64"); an
     * observed session its scenario, page and step ("observed in an app at http://localhost:5173/ · click #run").
     */
    public String dimensionsTag() {
        String what = scenario.generates() ? " " + scenario.id()
                : scenario.observed() ? " " + scenario.id() + (inputSet == null ? "" : " at " + inputSet)
                : family == ModelFamily.TEXT_GENERATION && inputSet != null ? " " + inputSet : "";
        return (precision == Precision.FP32 ? "" : " " + precision.id()) + (batchSize == 1 || what.contains(" b" + batchSize) ? "" : " b" + batchSize)
                + what + (runtimeOptions.isDefault() ? "" : " " + runtimeOptions.id());
    }

    /** This case on one host: a cell of the matrix across runs. */
    public CellId cellOn(String hostFingerprint) {
        return new CellId(this, hostFingerprint);
    }

    private String shortSha() {
        return modelSha256 == null ? "?" : modelSha256.substring(0, Math.min(12, modelSha256.length()));
    }

    @Override
    public String toString() {
        return key();
    }

    /**
     * A case on one host: history and regressions compare results of the same cell only.
     *
     * @param caseId          the case
     * @param hostFingerprint the host ({@link HostInfo#fingerprint()})
     */
    public record CellId(CaseId caseId, String hostFingerprint) {
        @Override
        public String toString() {
            return caseId.key() + "@" + hostFingerprint;
        }
    }
}
