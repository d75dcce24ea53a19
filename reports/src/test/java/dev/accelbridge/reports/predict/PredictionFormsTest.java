package dev.accelbridge.reports.predict;

import dev.accelbridge.core.GpuLedger;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A prediction's and a memory fit's JSON, records written whole: {@code "kind": "prediction"} first, an unknown figure null
 * (never 0), the fit's {@code measuredSince} only where the store has the target's own ledger; written as they were when
 * put by hand.
 */
class PredictionFormsTest {
    @Test
    void aPredictionIsSaidAsOneWithItsUnknownsNull() {
        Prediction p = new Prediction("text/bert", "webgpu [chromium]", "alpha", "fp-alpha", 2.5, Double.NaN, 3, 4, Double.NaN, Double.NaN, 0);
        assertThat(Predictions.json(p).toString()).isEqualTo("{\"kind\":\"prediction\",\"model\":\"text/bert\",\"config\":\"webgpu [chromium]\","
                + "\"host\":\"alpha\",\"hostFingerprint\":\"fp-alpha\",\"predictedP50Ms\":2.5,\"measuredP50Ms\":null,\"modelSamples\":3,"
                + "\"configSamples\":4,\"leaveOneOut\":{\"trials\":0,\"medianRelError\":null,\"p90RelError\":null}}");
        Prediction measured = new Prediction("text/bert", "wasm [chromium]", "alpha", "fp-alpha", 2.5, 2.25, 3, 4, 0.125, 0.5, 6);
        assertThat(Predictions.json(measured).get("measuredP50Ms").asDouble()).isEqualTo(2.25);
        assertThat(Predictions.json(measured).get("leaveOneOut").toString()).isEqualTo("{\"trials\":6,\"medianRelError\":0.125,\"p90RelError\":0.5}");
    }

    @Test
    void aMemoryFitNamesWhatItRestsOn() {
        GpuLedger ledger = new GpuLedger(6_355_600, 6_371_992, 80, 4_194_304, 12, 1L << 30, 1L << 30);
        MemoryFit f = new MemoryFit("big", "small", "vision/small", ledger, new MemoryFit.Sizes(400, 100), new MemoryFit.Sizes(40, 10),
                63_556_000, 41_943_040, new MemoryFit.DeviceClass("8 GiB", 8L << 30, 1L << 30, 1L << 27), MemoryFit.Verdict.FITS,
                List.of("peak fits"), null);
        String json = MemoryFits.json(f).toString();
        assertThat(json).startsWith("{\"kind\":\"prediction\",\"model\":\"big\",\"verdict\":\"FITS\",\"peakBytes\":63556000,"
                + "\"largestBufferBytes\":41943040,\"reference\":\"small\",\"referenceCase\":\"vision/small\",\"measuredItself\":false,"
                + "\"measured\":{\"peakBytes\":6355600,");
        assertThat(json).endsWith("\"target\":{\"weightBytes\":400,\"largestTensorBytes\":100},\"from\":{\"weightBytes\":40,\"largestTensorBytes\":10},"
                + "\"device\":{\"name\":\"8 GiB\",\"memoryBytes\":8589934592,\"maxBufferSize\":1073741824,\"maxStorageBufferBindingSize\":134217728},"
                + "\"reasons\":[\"peak fits\"]}");
        MemoryFit since = new MemoryFit("big", "small", "vision/small", ledger, f.target(), f.from(), f.peakBytes(), f.largestBufferBytes(),
                f.device(), f.verdict(), f.reasons(), ledger);
        assertThat(MemoryFits.json(since).get("measuredSince").get("buffers").asInt()).isEqualTo(12);
    }
}
