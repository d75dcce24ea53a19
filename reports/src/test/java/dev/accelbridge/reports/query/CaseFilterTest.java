package dev.accelbridge.reports.query;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.ReportsException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.accelbridge.reports.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The filter the dashboard's page and /api/cases share, on results made in memory. */
class CaseFilterTest {
    final HostInfo alpha = host("alpha");
    final HostInfo beta = host("beta");
    final List<RunResult> results = List.of(
            passed("r1", t(0), alpha, ModelFamily.TEXT, "bert", BackendId.CPU, nativeProv(alpha), samples(2, 0.05, 10, 1)),
            passed("r1", t(1), alpha, ModelFamily.TEXT, "bert", BackendId.WASM, chromiumProv(alpha, false), samples(4, 0.05, 10, 2)),
            passed("r1", t(2), beta, ModelFamily.VISION, "convnet", BackendId.WEBGPU, chromiumProv(beta, true), samples(60, 0.05, 10, 3)),
            notRun("r1", t(3), ModelFamily.AUDIO, "whisper", BackendId.CUDA, Status.UNAVAILABLE, "0 CUDA devices", nativeProv(alpha)));

    static Map<String, List<String>> q(String... kv) {
        java.util.Map<String, List<String>> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.computeIfAbsent(kv[i], k -> new java.util.ArrayList<>()).add(kv[i + 1]);
        }
        return m;
    }

    @Test
    void everyFieldNarrowsAndListsAreUnions() {
        assertThat(CaseFilter.parse(q()).apply(results)).hasSize(4);
        assertThat(CaseFilter.parse(q("family", "text")).apply(results)).extracting(RunResult::model).containsOnly("bert");
        assertThat(CaseFilter.parse(q("backend", "wasm,webgpu")).apply(results)).hasSize(2);
        assertThat(CaseFilter.parse(q("backend", "wasm", "backend", "cpu")).apply(results)).hasSize(2);
        assertThat(CaseFilter.parse(q("browser", "native")).apply(results)).extracting(r -> r.requested())
                .containsExactly(BackendId.CPU, BackendId.CUDA);
        assertThat(CaseFilter.parse(q("host", "beta")).apply(results)).extracting(RunResult::model).containsExactly("convnet");
        assertThat(CaseFilter.parse(q("host", beta.fingerprint())).apply(results)).hasSize(1);
        assertThat(CaseFilter.parse(q("status", "unavailable")).apply(results)).extracting(RunResult::model).containsExactly("whisper");
        assertThat(CaseFilter.parse(q("family", "text", "backend", "webgpu")).apply(results)).isEmpty();
        assertThat(CaseFilter.parse(q("precision", "fp32", "batch", "1")).apply(results)).hasSize(4);
        assertThat(CaseFilter.parse(q("batch", "4")).apply(results)).isEmpty();
    }

    @Test
    void dateRangeIncludesTheWholeEndDay() {
        String day = t(0).toString().substring(0, 10);
        assertThat(CaseFilter.parse(q("from", day, "to", day)).apply(results)).hasSize(4);
        assertThat(CaseFilter.parse(q("from", t(2).toString())).apply(results)).hasSize(2);
        assertThat(CaseFilter.parse(q("to", t(1).toString())).apply(results)).hasSize(1);
    }

    @Test
    void anUnknownValueNamesTheFieldAndTheAcceptedValues() {
        assertThatThrownBy(() -> CaseFilter.parse(q("status", "fine"))).isInstanceOf(ReportsException.class)
                .hasMessageContaining("status=fine").hasMessageContaining("WRONG_OUTPUT");
        assertThatThrownBy(() -> CaseFilter.parse(q("backend", "quantum"))).hasMessageContaining("backend=quantum");
        assertThatThrownBy(() -> CaseFilter.parse(q("batch", "0"))).hasMessageContaining("batch=0");
        assertThatThrownBy(() -> CaseFilter.parse(q("from", "yesterday"))).hasMessageContaining("from=yesterday");
    }
}
