package dev.accelbridge.reports.predict;

import dev.accelbridge.core.PublicApi;

/**
 * A predicted p50 — a prediction, never a measurement — with what it rests on and how wrong such predictions were on
 * the same host when each measured cell was left out and predicted from the others.
 *
 * @param model          the model's case key without backend and lane ({@code CaseId#inputKey()})
 * @param config         the backend and lane predicted for ({@code webgpu [chromium]})
 * @param host           the host's name
 * @param hostFingerprint the host's fingerprint
 * @param p50Ms          the predicted p50 (ms)
 * @param measuredP50Ms  the measured p50 when the store does have this combination (NaN otherwise)
 * @param modelSamples   how many other backends measured this model on the host
 * @param configSamples  how many other models this backend measured on the host
 * @param looMedianError median of |predicted / measured − 1| over the leave-one-out trials (NaN when too few)
 * @param looP90Error    90th percentile of the same
 * @param looTrials      how many leave-one-out trials
 */
@PublicApi
public record Prediction(String model, String config, String host, String hostFingerprint, double p50Ms, double measuredP50Ms,
                         int modelSamples, int configSamples, double looMedianError, double looP90Error, int looTrials) {
}
