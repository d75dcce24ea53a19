package dev.accelbridge.reports.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.Outcome;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.MemoryUsage;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.Timings;
import dev.accelbridge.reports.Fixtures;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Parts of a result's JSON form the golden reports do not hold, written as they were when put by hand: a dtype variant's
 * designed loss ({@code fidelity}) and the samples a percentile left out needs ({@code samplesNeeded}).
 */
class ResultPartsTest {
    private static RunResult variant(double cosine) {
        HostInfo h = Fixtures.host("alpha");
        CaseId fp32 = Fixtures.id(ModelFamily.VISION, "convnet", BackendId.WASM, Fixtures.chromiumProv(h, false));
        CaseId id = new CaseId(fp32.family(), fp32.model(), fp32.modelSha256(), fp32.inputSet(), fp32.inputShapes(), Precision.INT8, 1,
                BackendId.WASM, fp32.lane());
        return RunResult.of("r1", Instant.parse("2026-11-24T10:00:00Z"), id, new Outcome.Ran(BackendId.WASM, Timings.of(3, 4, 1, Fixtures.samples(1.0, 0.05, 30, 1)), Optional.ofNullable(new Parity(0.25, 0.1, cosine, 0.1, false, "native-cpu" + Parity.FP32_BASIS))), Status.PASSED, null,
                Fixtures.chromiumProv(h, false), new MemoryUsage(-1, -1, -1), List.of(), List.of());
    }

    @Test
    void aVariantsDesignedLossIsWrittenAsBefore() {
        ObjectNode o = ResultJson.result(variant(0.995), false);
        assertThat(o.get("fidelity").toString()).isEqualTo("{\"lossy\":true,\"closeness\":0.995,\"closenessOf\":\"outputs\",\"cosine\":0.995,"
                + "\"text\":\"lossy (the int8 variant against fp32 native: what is its loss by design and what this backend's error is not told apart, "
                + "its own native CPU run not compared): outputs cosine 0.9950 to fp32 native (max abs err 0.250)\"}");
        ObjectNode nan = ResultJson.result(variant(Double.NaN), false);
        assertThat(nan.get("fidelity").toString()).startsWith("{\"lossy\":true,\"closeness\":null,\"closenessOf\":\"outputs\",\"cosine\":null,");
    }

    @Test
    void thePercentilesLeftOutSayTheSamplesTheyNeed() {
        RunResult r = variant(0.995).withTimings(Timings.of(3, 4, 1, new double[]{1, 2, 3, 4, 5}));
        assertThat(ResultJson.result(r, false).get("samplesNeeded").toString()).isEqualTo("{\"p90\":36,\"p99\":368}");
        RunResult enough = variant(0.995).withTimings(Timings.of(3, 4, 1, Fixtures.samples(1.0, 0.05, 40, 1)));
        assertThat(ResultJson.result(enough, false).get("samplesNeeded").toString()).isEqualTo("{\"p99\":368}");
    }
}
