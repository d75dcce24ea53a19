package dev.accelbridge.bridge.bisect;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.BrowserSpec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What bisect-versions is asked, read from its options: pure logic, no I/O. */
class VersionRangeTest {
    @Test
    void eachAxisIsReadWithTheLaneItsOtherPartsStayAt() {
        VersionRange web = VersionRange.parse("1.17.0..1.30.0", null, null, BackendId.WEBGPU);
        assertThat(web.axis()).isEqualTo(VersionAxis.ORT_WEB);
        assertThat(List.of(web.good(), web.bad())).containsExactly("1.17.0", "1.30.0");
        assertThat(web.browser()).isEqualTo(BrowserSpec.of(BrowserKind.CHROMIUM));
        assertThat(VersionRange.parse("1.17.0..1.30.0", null, null, BackendId.WEBNN_CPU).browser().kind())
                .as("WebNN runs in the shell").isEqualTo(BrowserKind.CHROMIUM_SHELL);
        VersionRange shell = VersionRange.parse("1.22.0", "chromium-shell@141..153", null, BackendId.WEBNN_CPU);
        assertThat(shell.axis()).isEqualTo(VersionAxis.BROWSER);
        assertThat(List.of(shell.good(), shell.bad(), shell.ortWeb())).containsExactly("141", "153", "1.22.0");
        VersionRange nat = VersionRange.parse(null, null, "1.29.0..1.20.0", BackendId.CPU);
        assertThat(nat.axis()).isEqualTo(VersionAxis.ORT);
        assertThat(nat.good()).as("either end may be the older").isEqualTo("1.29.0");
        assertThat(nat).hasToString("ONNX Runtime 1.29.0..1.20.0");
    }

    @Test
    void whatCannotBeBisectedIsRefusedNamingTheFix() {
        assertThatThrownBy(() -> VersionRange.parse("1.17.0..1.18.0", null, "1.19.0..1.20.0", BackendId.WASM))
                .isInstanceOf(AccelbridgeException.class).hasMessageContaining("exactly one range to bisect, got 2");
        assertThatThrownBy(() -> VersionRange.parse("1.22.0", null, null, BackendId.WASM)).hasMessageContaining("got 0");
        assertThatThrownBy(() -> VersionRange.parse(null, null, "1.19.0..1.20.0", BackendId.WASM))
                .hasMessageContaining("does not run under ONNX Runtime");
        assertThatThrownBy(() -> VersionRange.parse("1.17.0..1.18.0", null, null, BackendId.CPU))
                .hasMessageContaining("does not run under onnxruntime-web");
        assertThatThrownBy(() -> VersionRange.parse(null, "chromium@141..153", null, BackendId.WASM))
                .hasMessageContaining("Only the headless shell");
        assertThatThrownBy(() -> VersionRange.parse("1.22.0;rm", "chromium-shell@141..153", null, BackendId.WASM))
                .hasMessageContaining("not a version");
    }

    @Test
    void theVersionsBetweenTwoEndsComeInOrderAndAnEndNotAmongThemIsNamed() {
        // from what this machine has: the pinned onnxruntime-web and the build's 1.17.0 and 1.18.0 at least
        List<String> between = VersionAxis.ORT_WEB.between("1.17.0", "1.18.0", false, true);
        assertThat(between).containsExactly("1.17.0", "1.18.0");
        assertThat(VersionAxis.ORT_WEB.between("1.18.0", "1.17.0", false, true)).containsExactly("1.18.0", "1.17.0");
        assertThatThrownBy(() -> VersionAxis.ORT_WEB.between("1.17.0", "1.17.9", false, true))
                .hasMessageContaining("1.17.9 is not among the versions this machine has").hasMessageContaining("nearest: 1.17.0");
    }
}
