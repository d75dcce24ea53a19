package dev.accelbridge.browser.page;

import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendUnavailableException;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.LaneId;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OrtWebBuildTest {
    private static final String JSEP = "ort-wasm-simd-threaded.jsep.wasm";

    @Test
    void aModuleThePageNamesIsRecordedWithTheSha256OfTheBytesTheBridgeServes() throws Exception {
        String expected = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(Files.readAllBytes(Path.of("src/main/web/node_modules/onnxruntime-web/dist", JSEP))));
        assertThat(OrtWebBuild.pinned().modules(List.of(JSEP))).contains(JSEP + " sha256:" + expected);
    }

    @Test
    void namesTheBridgeDoesNotServeAreNotTakenFromThePage() {
        OrtWebBuild pinned = OrtWebBuild.pinned();
        assertThat(pinned.modules(List.of())).isEmpty();
        // a path out of the folder, a file that is not a module, a module this build does not ship, a folder, junk
        assertThat(pinned.modules(List.of("../" + JSEP, "page.mjs", "ort-wasm-simd-threaded.wasm", "esm/" + JSEP,
                "x".repeat(5000) + ".wasm", ".wasm"))).isEmpty();
        // a page naming many: only the first few are read
        List<String> many = new ArrayList<>(Collections.nCopies(1000, "nothing.wasm"));
        many.add(JSEP);
        assertThat(pinned.modules(many)).isEmpty();
        assertThat(pinned.modules(List.of("nothing.wasm", JSEP)).orElseThrow()).startsWith(JSEP + " sha256:");
    }

    @Test
    void eachEngineIsItsBundleAndTheModuleItLoads() {
        OrtWebBuild pinned = OrtWebBuild.pinned();
        assertThat(pinned.engine()).isEqualTo(OrtWebEngine.JSEP);
        assertThat(pinned.pageQuery()).as("the page is told its engine, never left to decide").isEqualTo("ortEntry=ort.all.min.mjs");
        for (OrtWebEngine e : OrtWebEngine.values()) {
            OrtWebBuild b = pinned.withEngine(e);
            assertThat(b.engine()).isEqualTo(e);
            assertThat(b.modules(List.of(e.module()))).as("the pinned build serves %s", e.module()).isPresent();
            assertThat(e.isModule(e.module())).isTrue();
        }
        assertThat(pinned.withEngine(OrtWebEngine.WEBGPU_EP).pageQuery()).isEqualTo("ortEntry=ort.webgpu.min.mjs");
        assertThat(OrtWebEngine.WEBGPU_EP.isModule("ort-wasm-simd-threaded.jsep.wasm")).isFalse();
        assertThat(OrtWebEngine.JSEP.isModule("ort-wasm-simd.jsep.wasm")).as("1.17's name").isTrue();
        assertThat(OrtWebEngine.ofEntry("esm/ort.all.min.js")).isEqualTo(OrtWebEngine.JSEP);
        assertThat(OrtWebEngine.ofEntry("esm/ort.webgpu.min.js")).isEqualTo(OrtWebEngine.WEBGPU_EP);
        assertThatThrownBy(() -> OrtWebEngine.of("native")).isInstanceOf(AccelbridgeException.class)
                .hasMessageContaining("native").satisfies(x -> assertThat(((AccelbridgeException) x).fix()).contains("webgpu-ep"));
    }

    @Test
    void aReleaseWithoutTheNativeEpIsUnavailableOnItNamingWhatItShips() {
        OrtWebBuild old = OrtWebBuild.of("1.17.0"); // installed by the build
        assertThat(old.withEngine(OrtWebEngine.JSEP)).isSameAs(old);
        assertThatThrownBy(() -> old.withEngine(OrtWebEngine.WEBGPU_EP)).isInstanceOf(BackendUnavailableException.class)
                .hasMessageContaining("onnxruntime-web 1.17.0 does not ship the native WebGPU EP (asyncify)")
                .hasMessageContaining("ort-wasm-simd-threaded.asyncify.wasm").hasMessageContaining("ort-wasm-simd.jsep.wasm");
    }

    @Test
    void theJsepEngineKeepsTheLaneKeyItHadBeforeEnginesWereAnAxis() {
        OrtWebEngineAxis axis = new OrtWebEngineAxis();
        assertThat(axis.keyPart("jsep")).isEmpty();
        assertThat(axis.keyPart("webgpu-ep")).isEqualTo("+engine@webgpu-ep");
        LaneId lane = LaneId.of(BrowserKind.CHROMIUM).with("browserMajor", "156").with("ortWebVersion", "1.30.0");
        assertThat(lane.with(axis, "jsep").key()).isEqualTo(lane.key()).isEqualTo("chromium@156+ort-web@1.30.0");
        assertThat(lane.with(axis, "webgpu-ep").key()).isEqualTo("chromium@156+ort-web@1.30.0+engine@webgpu-ep");
        assertThatThrownBy(() -> lane.with(axis, "cuda")).isInstanceOf(AccelbridgeException.class);
    }
}
