package dev.accelbridge.reports.predict;

import dev.accelbridge.core.PublicApi;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.store.ResultJson;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Answers {@code accelbridge predict}: finds the host and the model's case key in the store's results, asks the
 * {@link Predictor}, and words or serialises the answer (always as a prediction).
 */
@PublicApi
public final class Predictions {
    private Predictions() {
    }

    /**
     * The prediction for {@code model} (its name, or {@code suite/model}) at {@code precision} and {@code batch} on
     * {@code backend} in {@code browser}'s lane (null: native for a native backend, chromium for a browser one), on
     * {@code host} (its name or fingerprint; null: the host with most results).
     *
     * @throws AccelbridgeException naming what the store lacks: the host, the model, or anything to predict from
     */
    public static Prediction answer(List<RunResult> results, String model, Precision precision, int batch, BackendId backend,
                                    BrowserKind browser, String host) {
        Map<String, String> hosts = new LinkedHashMap<>();
        Map<String, Long> counts = results.stream().filter(r -> r.hostFingerprint() != null)
                .collect(Collectors.groupingBy(RunResult::hostFingerprint, Collectors.counting()));
        results.forEach(r -> {
            if (r.hostFingerprint() != null) {
                hosts.putIfAbsent(r.hostFingerprint(), r.provenance().host());
            }
        });
        if (hosts.isEmpty()) {
            throw new AccelbridgeException("The store has no results to predict from", "run 'accelbridge run' first");
        }
        String fp;
        if (host == null) {
            fp = counts.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        } else {
            fp = hosts.entrySet().stream().filter(e -> e.getKey().equals(host) || host.equals(e.getValue())).map(Map.Entry::getKey)
                    .findFirst().orElseThrow(() -> new AccelbridgeException("No host '" + host + "' in the store",
                            "give --host with one of: " + hosts.entrySet().stream().map(e -> e.getValue() + " (" + e.getKey() + ")")
                                    .collect(Collectors.joining(", "))));
        }
        String hf = fp;
        LaneId lane = backend.isBrowser() ? LaneId.of(browser == null ? BrowserKind.CHROMIUM : browser) : LaneId.NATIVE;
        String config = backend.id() + " [" + lane.id() + "]";
        Optional<RunResult> newest = results.stream().filter(r -> hf.equals(r.hostFingerprint()))
                .filter(r -> r.model().equals(model) || r.id().row().equals(model))
                .filter(r -> r.id().precision() == precision && r.id().batchSize() == batch)
                .max(Comparator.comparing(r -> r.startedAt() == null ? java.time.Instant.EPOCH : r.startedAt()));
        if (newest.isEmpty()) {
            List<String> known = results.stream().filter(r -> hf.equals(r.hostFingerprint()))
                    .map(r -> r.id().row() + " " + r.id().precision().id() + " b" + r.id().batchSize()).distinct().sorted().toList();
            throw new AccelbridgeException("The store has no measurement of " + model + " at " + precision.id() + ", batch " + batch
                    + " on host " + hosts.get(hf) + ", so there is nothing to predict from", "run it on at least one backend first; "
                    + "measured there: " + String.join(", ", known));
        }
        return Predictor.of(results, hf).predict(newest.get().id().inputKey(), config, hosts.get(hf), hf)
                .orElseThrow(() -> new AccelbridgeException("Cannot predict " + model + " on " + config + " at host " + hosts.get(hf)
                        + ": the host has no measurement of this backend on another model, or of this model on another backend",
                        "measure " + config + " on some model and " + model + " on some backend on that host"));
    }

    /**
     * A prediction's JSON form, {@code "kind": "prediction"} first, so no reader mistakes it for a result.
     *
     * @param measuredP50Ms the store's own measurement of the same combination (left out of the prediction), or null
     */
    public record PredictionForm(String kind, String model, String config, String host, String hostFingerprint,
                                 double predictedP50Ms, Double measuredP50Ms, int modelSamples, int configSamples,
                                 LeaveOneOut leaveOneOut) {
    }

    /**
     * How such predictions erred on this host, each measured cell left out and predicted from the rest.
     *
     * @param medianRelError null when no cell could be left out
     * @param p90RelError    null when no cell could be left out
     */
    public record LeaveOneOut(int trials, Double medianRelError, Double p90RelError) {
    }

    /** The JSON form ({@link PredictionForm}). */
    public static ObjectNode json(Prediction p) {
        return ResultJson.MAPPER.valueToTree(form(p));
    }

    /** The prediction's form. */
    public static PredictionForm form(Prediction p) {
        return new PredictionForm("prediction", p.model(), p.config(), p.host(), p.hostFingerprint(), p.p50Ms(), known(p.measuredP50Ms()),
                p.modelSamples(), p.configSamples(), new LeaveOneOut(p.looTrials(), known(p.looMedianError()), known(p.looP90Error())));
    }

    private static Double known(double v) {
        return Double.isNaN(v) ? null : v;
    }

    /** One paragraph for a terminal, starting with PREDICTION. */
    public static String describe(Prediction p) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT,
                "PREDICTION (not a measurement): %s on %s at host %s: p50 ≈ %.3f ms%n", p.model(), p.config(), p.host(), p.p50Ms()));
        b.append(String.format(Locale.ROOT, "  from %d other backend(s) measured on this model and %d other model(s) measured on "
                + "this backend, on this host%n", p.modelSamples(), p.configSamples()));
        if (p.looTrials() == 0) {
            b.append("  error: unknown (no measured cell of this host can be left out and predicted from the rest)\n");
        } else {
            b.append(String.format(Locale.ROOT, "  error of such predictions on this host (leave-one-out over %d measured cells): "
                    + "median %.0f%%, 90th percentile %.0f%%%n", p.looTrials(), 100 * p.looMedianError(), 100 * p.looP90Error()));
        }
        if (!Double.isNaN(p.measuredP50Ms())) {
            b.append(String.format(Locale.ROOT, "  the store HAS measured this combination: p50 %.3f ms (the prediction leaves it out)%n",
                    p.measuredP50Ms()));
        }
        return b.toString();
    }
}
