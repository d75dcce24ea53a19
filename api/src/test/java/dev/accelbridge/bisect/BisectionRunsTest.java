package dev.accelbridge.bisect;

import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.suites.FeedOptions;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.Tolerance;
import dev.accelbridge.nativerunner.DjlOnnxRuntimeProvider;
import dev.accelbridge.suites.WildModels;
import dev.accelbridge.suites.ModelDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bisection's runs ask for outputs alone: each is one run in the verdict's window, so a browser makes its session once
 * (the placement, which the bisection never reads, checked without the verbose listing session). Before, each run asked
 * for the full rule, so a tapped model onnxruntime-web refused with CPU fallback disabled was made three times in a page
 * (the strict session, the verbose listing, the timed one).
 */
class BisectionRunsTest {
    @Test
    void everyRunABisectionAsksForIsOneRunForItsOutputs(@TempDir Path tmp) throws Exception {
        ModelCase mc = ModelDirectory.loadAll(WildModels.unary(tmp.resolve("zoo"), "Relu"), Optional.empty(), FeedOptions.none())
                .get(0).cases().get(0);
        List<ExecutionRequest> asked = new CopyOnWriteArrayList<>();
        try (DjlOnnxRuntimeProvider nativeCpu = new DjlOnnxRuntimeProvider()) {
            BackendProvider recorded = recording(nativeCpu, asked);
            Bisector.Found found = new Bisector(tmp.resolve("work"), Duration.ofMinutes(1)).bisect(mc, BackendId.CPU, recorded, recorded,
                    dt -> Tolerance.defaults(BackendId.CPU, dt, Precision.FP32), null);
            assertThat(found.bisection()).isNotNull();
        }
        assertThat(asked).as("the runs the bisection made").isNotEmpty().allSatisfy(r -> {
            assertThat(r.warmups()).isZero();
            assertThat(r.iterations()).isEqualTo(1);
            assertThat(r.verdictWindow()).as("outputs alone: nothing settled, no node listing").isTrue();
        });
    }

    /** {@code real}, with every request it is given kept in {@code asked}. */
    private static BackendProvider recording(BackendProvider real, List<ExecutionRequest> asked) {
        return new BackendProvider() {
            @Override public String name() { return real.name(); }
            @Override public Set<BackendId> backends() { return real.backends(); }
            @Override public Availability probe(BackendId b) { return real.probe(b); }

            @Override
            public Execution execute(ExecutionRequest request) {
                asked.add(request);
                return real.execute(request);
            }
        };
    }
}
