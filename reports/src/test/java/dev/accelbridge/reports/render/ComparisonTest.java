package dev.accelbridge.reports.render;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.query.CaseFilter;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.accelbridge.reports.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Side-by-side comparisons and the ratio label the views show, on results made in memory. */
class ComparisonTest {
    final HostInfo alpha = host("alpha");
    final HostInfo beta = host("beta");

    @Test
    void twoRunsPairTheSameCaseOnTheSameHostWithBOverA() {
        List<RunResult> a = List.of(
                passed("r1", t(0), alpha, ModelFamily.TEXT, "bert", BackendId.WASM, chromiumProv(alpha, false), samples(4, 0.01, 11, 1)),
                passed("r1", t(1), alpha, ModelFamily.TEXT, "bert", BackendId.CPU, nativeProv(alpha), samples(2, 0.01, 11, 2)));
        List<RunResult> b = List.of(
                passed("r2", t(5), alpha, ModelFamily.TEXT, "bert", BackendId.WASM, chromiumProv(alpha, false), samples(6, 0.01, 11, 3)),
                notRun("r2", t(6), ModelFamily.AUDIO, "whisper", BackendId.CUDA, Status.UNAVAILABLE, "0 devices", nativeProv(alpha)));
        Comparison c = Comparison.of(Comparison.By.RUN, "r1", "r2", a, b);
        assertThat(c.rows()).hasSize(3);
        Comparison.Row wasm = c.rows().get(0);
        assertThat(wasm.ratio()).isCloseTo(b.get(0).timings().orElseThrow().p50Ms() / a.get(0).timings().orElseThrow().p50Ms(), within(1e-12));
        assertThat(wasm.ratio()).isGreaterThan(1.3);
        // a case one side lacks has no ratio and comes after the pairs
        assertThat(c.rows().get(1).b()).isNull();
        assertThat(c.rows().get(2).a()).isNull();
        assertThat(c.rows().get(2).ratio()).isNaN();
        ObjectNode json = ComparisonJson.json(c);
        assertThat(json.get("rows").get(0).get("ratioLabel").asText()).matches("×1\\.\\d\\d \\[1\\.\\d\\d–1\\.\\d\\d\\] significant");
        assertThat(json.get("rows").get(0).get("ratioCi").size()).isEqualTo(2);
        assertThat(json.get("rows").get(0).get("significant").asBoolean()).isTrue();
        assertThat(json.get("rows").get(2).get("a").get("status").asText()).isEqualTo("ABSENT");
        assertThat(json.get("rows").get(2).get("ratio").isNull()).isTrue();
    }

    @Test
    void aChangeIsSignificantOnlyWhenItsIntervalExcludesNoChangeAndItExceedsTheThreshold() {
        // found when tried: the compare view gave bare ratios, and two identical runs here differ by 4-90 % per cell
        RunResult base = passed("r1", t(0), alpha, ModelFamily.TEXT, "bert", BackendId.WASM, chromiumProv(alpha, false), samples(10, 0.05, 200, 1));
        RunResult same = passed("r2", t(5), alpha, ModelFamily.TEXT, "bert", BackendId.WASM, chromiumProv(alpha, false), samples(10, 0.05, 200, 2));
        RunResult slower = passed("r3", t(9), alpha, ModelFamily.TEXT, "bert", BackendId.WASM, chromiumProv(alpha, false), samples(13, 0.05, 200, 3));
        RunResult slightly = passed("r4", t(9), alpha, ModelFamily.TEXT, "bert", BackendId.WASM, chromiumProv(alpha, false), samples(10.5, 0.01, 200, 4));
        RunResult few = passed("r5", t(9), alpha, ModelFamily.TEXT, "bert", BackendId.WASM, chromiumProv(alpha, false), samples(20, 0.01, 3, 5));
        Comparison.Row noChange = Comparison.of(Comparison.By.RUN, "r1", "r2", List.of(base), List.of(same)).rows().get(0);
        assertThat(noChange.ratioCi().excludes(1)).isFalse();
        assertThat(noChange.significant()).isFalse();
        Comparison.Row thirty = Comparison.of(Comparison.By.RUN, "r1", "r3", List.of(base), List.of(slower)).rows().get(0);
        assertThat(thirty.ratioCi().lo()).isGreaterThan(1.2);
        assertThat(thirty.significant()).isTrue();
        // +5 %: the interval excludes 1 (tight samples), but the effect is under the 10 % threshold
        Comparison.Row five = Comparison.of(Comparison.By.RUN, "r1", "r4", List.of(base), List.of(slightly)).rows().get(0);
        assertThat(five.significant()).isFalse();
        assertThat(Comparison.of(Comparison.By.RUN, "r1", "r4", List.of(base), List.of(slightly), 0.02).rows().get(0).significant())
                .as("a 2 %% threshold calls it").isTrue();
        // twice as slow, from three samples: no interval, so never called significant
        Comparison.Row tooFew = Comparison.of(Comparison.By.RUN, "r1", "r5", List.of(base), List.of(few)).rows().get(0);
        assertThat(tooFew.ratioCi()).isNull();
        assertThat(tooFew.significant()).isFalse();
    }

    @Test
    void twoBrowsersPairTheCaseLessItsLaneAndTwoHostsTheCase() {
        HostInfo h = alpha;
        RunResult chromium = passed("r1", t(0), h, ModelFamily.VISION, "convnet", BackendId.WASM, chromiumProv(h, false), samples(3, 0.01, 11, 1));
        RunResult shell = passed("r1", t(1), h, ModelFamily.VISION, "convnet", BackendId.WASM, shellProv(h), samples(2, 0.01, 11, 2));
        Comparison byBrowser = Comparison.of(Comparison.By.LANE, "chromium", "chromium-shell", List.of(chromium), List.of(shell));
        assertThat(byBrowser.rows()).hasSize(1);
        assertThat(byBrowser.rows().get(0).ratio()).isLessThan(1);

        RunResult onBeta = passed("r9", t(3), beta, ModelFamily.VISION, "convnet", BackendId.WASM, chromiumProv(beta, false), samples(9, 0.01, 11, 4));
        Comparison byHost = Comparison.of(Comparison.By.HOST, "alpha", "beta",
                CaseFilter.parse(Map.of("host", List.of("alpha"))).apply(List.of(chromium, onBeta)),
                CaseFilter.parse(Map.of("host", List.of("beta"))).apply(List.of(chromium, onBeta)));
        assertThat(byHost.rows()).hasSize(1);
        assertThat(byHost.rows().get(0).ratio()).isGreaterThan(2);
    }

    @Test
    void runsUnderOtherV8TieringSayTheirFiguresAreNotAlike() {
        // found when tried: the V8 flag that makes a lane optimise at once was in no caveat, so compare mixed runs with and without it
        dev.accelbridge.core.Provenance plain = chromiumProv(alpha, false);
        java.util.Map<String, String> v = new java.util.HashMap<>(plain.runtimeVersions());
        v.put("v8-flags", "--wasm-sync-tier-up");
        dev.accelbridge.core.Provenance sync = new dev.accelbridge.core.Provenance(plain.host(), plain.hostFingerprint(), plain.os(),
                plain.browser(), plain.browserVersion(), plain.driver(), plain.adapter(), plain.softwareAdapter(),
                plain.executionProviders(), v, plain.threads(), java.util.Map.of());
        RunResult a = passed("r1", t(0), alpha, ModelFamily.TEXT, "bert", BackendId.WASM, sync, samples(4, 0.01, 11, 1));
        RunResult b = passed("r2", t(1), alpha, ModelFamily.TEXT, "bert", BackendId.WASM, plain, samples(4, 0.01, 11, 2));
        Comparison.Row row = Comparison.of(Comparison.By.RUN, "r1", "r2", List.of(a), List.of(b)).rows().get(0);
        assertThat(row.caveat()).isEqualTo("V8 tiered up otherwise on each side (A at once: --wasm-sync-tier-up, B as its browser "
                + "does (no flags recorded)): cold figures are not alike");
        assertThat(Comparison.of(Comparison.By.RUN, "r1", "r2", List.of(a), List.of(a)).rows().get(0).caveat()).isNull();
    }

    @Test
    void theRatioLabelSaysSlowerOrFasterAndNothingWithoutAFigure() {
        assertThat(Views.ratioLabel(3.2)).isEqualTo("3.20× slower than native CPU");
        assertThat(Views.ratioLabel(0.5)).isEqualTo("2.00× faster than native CPU");
        assertThat(Views.ratioLabel(Double.NaN)).isEmpty();
    }

    private static dev.accelbridge.core.Provenance shellProv(HostInfo h) {
        dev.accelbridge.core.Provenance p = chromiumProv(h, false);
        return new dev.accelbridge.core.Provenance(p.host(), p.hostFingerprint(), p.os(), "chromium-shell", "153.0.0.0", p.driver(),
                p.adapter(), p.softwareAdapter(), p.executionProviders(), p.runtimeVersions(), p.threads());
    }
}
