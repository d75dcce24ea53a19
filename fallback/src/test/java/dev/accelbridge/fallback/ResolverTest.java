package dev.accelbridge.fallback;

import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.FallbackHop;
import dev.accelbridge.core.Status;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static dev.accelbridge.core.BackendId.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ResolverTest {
    enum Probe { YES, NO, NONE }

    private static Map<BackendId, Availability> probes(List<BackendId> hops, Probe[] answers) {
        Map<BackendId, Availability> m = new EnumMap<>(BackendId.class);
        for (int i = 0; i < hops.size(); i++) {
            BackendId b = hops.get(i);
            switch (answers[i]) {
                case YES -> m.put(b, Availability.available(b, "ev-" + b + "-ok", "chromium 156"));
                case NO -> m.put(b, Availability.unavailable(b, "ev-" + b + "-missing", "chromium 156"));
                case NONE -> { }
            }
        }
        return m;
    }

    /** Every combination of probe answers over the 4-hop webgpu chain: chosen hop and every hop's reason. */
    @Test
    void truthTableOverProbeAnswers() {
        Chain chain = Chains.defaults().forBackend(WEBGPU);
        List<BackendId> hops = chain.hops();
        int n = hops.size();
        int combos = (int) Math.pow(3, n);
        for (int code = 0; code < combos; code++) {
            Probe[] a = new Probe[n];
            int c = code;
            for (int i = 0; i < n; i++) {
                a[i] = Probe.values()[c % 3];
                c /= 3;
            }
            Resolution r = Resolver.resolve(chain, probes(hops, a));
            int expectChosen = -1;
            for (int i = 0; i < n; i++) {
                if (a[i] == Probe.YES) {
                    expectChosen = i;
                    break;
                }
            }
            String label = java.util.Arrays.toString(a);
            List<FallbackHop> fh = r.hops();
            assertThat(fh).as(label).hasSize(n);
            for (int i = 0; i < n; i++) {
                BackendId b = hops.get(i);
                FallbackHop h = fh.get(i);
                assertThat(h.backend()).isEqualTo(b);
                assertThat(h.taken()).as(label + " taken " + b).isEqualTo(i == expectChosen);
                String expected = switch (a[i]) {
                    case YES -> i == expectChosen ? "available: ev-" + b + "-ok [chromium 156]"
                            : "available, not needed: " + hops.get(expectChosen) + " was taken";
                    case NO -> "unavailable: ev-" + b + "-missing [chromium 156]";
                    case NONE -> "not probed";
                };
                assertThat(h.reason()).as(label + " reason " + b).isEqualTo(expected);
            }
            Verdict v = r.statusFor(Status.PASSED);
            if (expectChosen < 0) {
                assertThat(r.chosen()).isEmpty();
                assertThat(v.status()).as(label).isEqualTo(Status.UNAVAILABLE);
                for (FallbackHop h : fh) {
                    assertThat(v.reason()).contains(h.backend() + " " + h.reason());
                }
            } else if (expectChosen == 0) {
                assertThat(r.chosen()).contains(WEBGPU);
                assertThat(v).isEqualTo(new Verdict(Status.PASSED, null));
            } else {
                assertThat(r.chosen()).contains(hops.get(expectChosen));
                assertThat(v.status()).as(label).isEqualTo(Status.FELL_BACK);
                assertThat(v.reason()).startsWith("fell back webgpu → " + hops.get(expectChosen));
                for (int i = 0; i < expectChosen; i++) {
                    assertThat(v.reason()).contains(fh.get(i).reason());
                }
            }
        }
    }

    /** Runtime failures move along the chain; each failure stays as its hop's reason. */
    @Test
    void truthTableOverRuntimeFailures() {
        Chain chain = Chains.defaults().forBackend(CUDA);
        Map<BackendId, Availability> all = new EnumMap<>(BackendId.class);
        for (BackendId b : chain.hops()) {
            all.put(b, Availability.available(b, b + " present", "native"));
        }
        // number of leading hops that fail: 0..3
        for (int failures = 0; failures <= chain.hops().size(); failures++) {
            Resolution r = Resolver.resolve(chain, all);
            for (int i = 0; i < failures; i++) {
                BackendId chosen = r.chosen().orElseThrow();
                assertThat(chosen).isEqualTo(chain.hops().get(i));
                r = r.afterFailure(chosen, "boom " + i);
            }
            List<FallbackHop> h = r.hops();
            for (int i = 0; i < chain.hops().size(); i++) {
                String expected;
                if (i < failures) {
                    expected = "failed: boom " + i;
                } else if (i == failures) {
                    expected = "available: " + chain.hops().get(i) + " present [native]";
                } else {
                    expected = "available, not needed: " + chain.hops().get(failures) + " was taken";
                }
                assertThat(h.get(i).reason()).as("failures=" + failures + " hop " + i).isEqualTo(expected);
                assertThat(h.get(i).taken()).isEqualTo(i == failures);
            }
            Verdict v = r.statusFor(Status.PASSED);
            Status expectedStatus = failures == 0 ? Status.PASSED
                    : failures == chain.hops().size() ? Status.FAILED : Status.FELL_BACK;
            assertThat(v.status()).as("failures=" + failures).isEqualTo(expectedStatus);
            if (failures > 0) {
                assertThat(v.reason()).contains("failed: boom 0");
            }
        }
    }

    @Test
    void failureSkipsUnavailableAndUnprobedHops() {
        Chain chain = Chains.defaults().forBackend(WEBGPU);
        Map<BackendId, Availability> p = new EnumMap<>(BackendId.class);
        p.put(WEBGPU, Availability.available(WEBGPU, "swiftshader", "chromium"));
        p.put(WEBNN_GPU, Availability.unavailable(WEBNN_GPU, "NotSupportedError", "chromium"));
        p.put(WASM, Availability.available(WASM, "wasm ok", "chromium"));
        Resolution r = Resolver.resolve(chain, p).afterFailure(WEBGPU, "shader compile error");
        assertThat(r.chosen()).contains(WASM);
        assertThat(r.hops()).extracting(FallbackHop::reason).containsExactly(
                "failed: shader compile error", "unavailable: NotSupportedError [chromium]", "not probed",
                "available: wasm ok [chromium]");
        Verdict v = r.statusFor(Status.PASSED);
        assertThat(v.status()).isEqualTo(Status.FELL_BACK);
        assertThat(v.reason()).contains("webgpu → wasm", "shader compile error", "NotSupportedError", "webnn-cpu not probed");
        // a wrong output on the fallback hop stays WRONG_OUTPUT, with the path in the reason
        Verdict w = r.statusFor(Status.WRONG_OUTPUT);
        assertThat(w.status()).isEqualTo(Status.WRONG_OUTPUT);
        assertThat(w.reason()).contains("after fallback webgpu → wasm");
    }

    @Test
    void wrongOutputMovesOnOnlyByPolicy() {
        Chain chain = Chain.of(WEBGPU, WASM);
        List<Availability> p = new ArrayList<>();
        p.add(Availability.available(WEBGPU, "gpu", null));
        p.add(Availability.available(WASM, "wasm", null));
        Resolution r = Resolver.resolve(chain, p);
        assertThat(r.afterWrongOutput(WEBGPU, "cosine 0.2", FallbackPolicy.ON_FAILURE)).isEqualTo(r);
        assertThat(r.after(WEBGPU, Status.WRONG_OUTPUT, "cosine 0.2", FallbackPolicy.ON_FAILURE)).isEqualTo(r);
        Resolution moved = r.after(WEBGPU, Status.WRONG_OUTPUT, "cosine 0.2", FallbackPolicy.ON_FAILURE_AND_WRONG_OUTPUT);
        assertThat(moved.chosen()).contains(WASM);
        assertThat(moved.hops().get(0).reason()).isEqualTo("wrong output: cosine 0.2");
        assertThat(moved.statusFor(Status.PASSED).status()).isEqualTo(Status.FELL_BACK);
        Resolution exhausted = moved.afterWrongOutput(WASM, "cosine 0.3", FallbackPolicy.ON_FAILURE_AND_WRONG_OUTPUT);
        assertThat(exhausted.chosen()).isEmpty();
        assertThat(exhausted.statusFor(Status.PASSED).status()).isEqualTo(Status.WRONG_OUTPUT);
        assertThat(FallbackPolicy.parse("on-failure-and-wrong-output")).isEqualTo(FallbackPolicy.ON_FAILURE_AND_WRONG_OUTPUT);
    }

    @Test
    void unsupportedEverywhereIsUnsupported() {
        Chain chain = Chain.of(COREML, CPU);
        Resolution r = Resolver.resolve(chain, List.of(Availability.unavailable(COREML, "not macOS", "native"),
                Availability.available(CPU, "always", "native")));
        Resolution u = r.after(CPU, Status.UNSUPPORTED, "op FooBar not implemented", FallbackPolicy.ON_FAILURE);
        Verdict v = u.statusFor(Status.PASSED);
        assertThat(v.status()).isEqualTo(Status.UNSUPPORTED);
        assertThat(v.reason()).contains("coreml unavailable: not macOS [native]", "cpu unsupported: op FooBar not implemented");
    }

    @Test
    void onlyTheChosenHopCanFail() {
        Resolution r = Resolver.resolve(Chain.of(CUDA, CPU), List.of(Availability.unavailable(CUDA, "0 devices", "native"),
                Availability.available(CPU, "ok", "native")));
        assertThatThrownBy(() -> r.afterFailure(CUDA, "x")).isInstanceOf(FallbackException.class)
                .hasMessageContaining("chosen hop").hasMessageContaining("cpu");
        assertThat(r.stateOf(CUDA)).isEqualTo(HopState.UNAVAILABLE);
        assertThatThrownBy(() -> r.stateOf(WASM)).isInstanceOf(FallbackException.class);
    }
}
