package dev.accelbridge.browser.page;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

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
        assertThat(pinned.modules(List.of("../" + JSEP, "page.mjs", "ort-wasm-simd-threaded.asyncify.wasm", "esm/" + JSEP,
                "x".repeat(5000) + ".wasm", ".wasm"))).isEmpty();
        // a page naming many: only the first few are read
        List<String> many = new ArrayList<>(Collections.nCopies(1000, "nothing.wasm"));
        many.add(JSEP);
        assertThat(pinned.modules(many)).isEmpty();
        assertThat(pinned.modules(List.of("nothing.wasm", JSEP)).orElseThrow()).startsWith(JSEP + " sha256:");
    }
}
