package dev.accelbridge.run;

import dev.accelbridge.core.Outcome;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Bisection;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The run's bisections within their budget, and a bisection made once answering the same wrong case elsewhere (pure:
 * no bisection runs here; a case past the budget is never handed to a provider).
 */
class BisectionBudgetTest {
    private static final ModelSpec MINILM = new ModelSpec(ModelFamily.TEXT, "minilm", null, "ab", 17, 0, List.of(), List.of(), List.of(),
            "generated", Double.NaN);

    private static RunResult wrong(String runId, BrowserKind browser, String major, String engine, String adapter) {
        LaneId lane = LaneId.of(browser).with(OrtWebEngine.AXIS, engine).with("ortWebVersion", "1.30.0").with("browserMajor", major);
        CaseId id = new CaseId(ModelFamily.TEXT, "minilm", "ab", "gen", "", Precision.Q8, 1, BackendId.WEBGPU, lane);
        return RunResult.of(runId, Instant.EPOCH, id, new Outcome.Stopped(BackendId.WEBGPU, Optional.ofNullable(new Parity(0.3, 0.1, 0.995, 0.1, false, "native-cpu fp32"))), Status.WRONG_OUTPUT, "outputs differ",
                Provenance.of(browser.id(), major, "playwright", adapter, true, List.of(), Map.of()), null, List.of(), List.of());
    }

    private static Bisection found() {
        return new Bisection(Bisection.Outcome.FOUND, "ln", "LayerNormalization", Map.of(), List.of(), List.of(), 0.3, 0.1,
                "native-cpu", BackendId.WEBGPU, List.of(), 12, null, null);
    }

    private static ModelCase q8() {
        return new ModelCase(MINILM, "gen", List.of(), Optional.empty(), Map.of(), Precision.Q8, null);
    }

    @Test
    void aCasePastTheBudgetIsNotBisectedAndItsRowGivesTheCommandThatBisectsIt() {
        Bisections spent = new Bisections(Path.of("unused"), Duration.ofSeconds(5), null, null, false, Duration.ZERO, r -> List.of());
        RunResult r = spent.apply(wrong("now", BrowserKind.CHROMIUM, "146", "webgpu-ep", "swiftshader"), q8(), b -> {
            throw new AssertionError("a case past the budget must not run a bisection");
        });
        Bisection b = r.analysis().bisection();
        assertThat(b.outcome()).isEqualTo(Bisection.Outcome.DEFERRED);
        assertThat(r.status()).isEqualTo(Status.WRONG_OUTPUT);
        assertThat(b.describe()).startsWith("bisection on webgpu: not run (the run's bisections took their 0 s (--bisect-budget); "
                + "bisect it: accelbridge bisect --model minilm --backend webgpu --browser chromium@146 --ort-web 1.30.0 --engines webgpu-ep "
                + "--precision q8)");
        // accelbridge bisect itself bisects whatever the budget
        Bisections always = new Bisections(Path.of("unused"), Duration.ofSeconds(5), null, null, true, Duration.ZERO, r2 -> List.of());
        assertThat(always.wanted(r)).isTrue();
    }

    @Test
    void oneMadeOnThisHostForTheSameCaseAndAdapterIsReusedAndAnotherAdapterOrBrowserEngineIsNot() {
        RunResult now = wrong("now", BrowserKind.CHROMIUM_SHELL, "153", "jsep", "swiftshader");
        RunResult before = wrong("before", BrowserKind.CHROMIUM_SHELL, "153", "jsep", "swiftshader");
        before = before.withAnalysis(before.analysis().withBisection(found()));
        assertThat(BisectionReuse.of(null, List.of(before), now, BackendId.WEBGPU)).hasValueSatisfying(b -> {
            assertThat(b.node()).isEqualTo("ln");
            assertThat(b.note()).isEqualTo("made in run before on this host for the same case and adapter");
        });
        RunResult otherAdapter = wrong("now", BrowserKind.CHROMIUM_SHELL, "153", "jsep", "nvidia");
        assertThat(BisectionReuse.of(null, List.of(before), otherAdapter, BackendId.WEBGPU)).isEmpty();
        // another Blink build is the same key; Gecko and the other engine are not
        assertThat(BisectionReuse.key(wrong("x", BrowserKind.CHROMIUM, "146", "jsep", "swiftshader"), BackendId.WEBGPU))
                .isEqualTo(BisectionReuse.key(now, BackendId.WEBGPU))
                .isNotEqualTo(BisectionReuse.key(wrong("x", BrowserKind.FIREFOX, "140", "jsep", "swiftshader"), BackendId.WEBGPU))
                .isNotEqualTo(BisectionReuse.key(wrong("x", BrowserKind.CHROMIUM, "146", "webgpu-ep", "swiftshader"), BackendId.WEBGPU));
        // a failed bisection answers nothing
        RunResult failed = before.withAnalysis(before.analysis().withBisection(Bisection.without(Bisection.Outcome.FAILED,
                BackendId.WEBGPU, "native-cpu", 0.1, 0, "did not load")));
        assertThat(BisectionReuse.of(null, List.of(failed), now, BackendId.WEBGPU)).isEmpty();
    }

    @Test
    void aBisectionMadeInTheRunAnswersTheSameKeySaidAsSuch() {
        RunResult shell = wrong("now", BrowserKind.CHROMIUM_SHELL, "153", "jsep", "swiftshader");
        assertThat(BisectionReuse.of(found(), List.of(), shell, BackendId.WEBGPU)).hasValueSatisfying(b ->
                assertThat(b.note()).startsWith("made once in this run"));
    }
}
