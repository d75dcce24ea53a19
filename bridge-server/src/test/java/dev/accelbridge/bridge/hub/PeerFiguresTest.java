package dev.accelbridge.bridge.hub;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.bridge.protocol.FrameCodec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A joining device's figures are another program's word. Found when tried: a peer answering with {@code sessionMs}
 * -5e300, {@code firstMs} -1e300 and -7 warm-ups had them stored beside a PASSED row. A time that is not a finite,
 * non-negative number is unknown (NaN, never 0); a warm-up count below zero is not a count, and the answer is refused.
 */
class PeerFiguresTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aLoadTimeThatIsNoTimeIsUnknown() throws Exception {
        LoadedSession l = JobMessages.toLoaded(JSON.readTree("{\"type\":\"loaded\",\"session\":\"s\",\"sessionMs\":-5e300,\"fetchMs\":-1}"));
        assertThat(l.sessionMs()).isNaN();
        assertThat(l.fetchMs()).isNaN();
        assertThat(JobMessages.toLoaded(JSON.readTree("{\"type\":\"loaded\",\"session\":\"s\",\"sessionMs\":12.5}")).sessionMs()).isEqualTo(12.5);
    }

    @Test
    void aRunsClockFiguresThatAreNoTimesAreUnknown() {
        RunOutcome o = JobMessages.toOutcome(frame("{\"type\":\"result\",\"session\":\"s\",\"firstMs\":-1e300,\"warmups\":3,"
                + "\"samplesMs\":[1.0,1.1],\"timerResolutionMs\":-0.1,\"readbackMs\":-2,\"gpuMs\":-3,\"warmupMs\":-4}"));
        assertThat(o.firstMs()).isNaN();
        assertThat(o.timerResolutionMs()).isNaN();
        assertThat(o.readbackMs()).isNaN();
        assertThat(o.gpuMs()).isNaN();
        assertThat(o.warmupMs()).isNaN();
    }

    @Test
    void aNegativeWarmupCountIsRefused() {
        assertThatThrownBy(() -> JobMessages.toOutcome(frame("{\"type\":\"result\",\"session\":\"s\",\"firstMs\":1,\"warmups\":-7,"
                + "\"samplesMs\":[1.0]}"))).isInstanceOf(PageJobException.class).hasMessageContaining("-7");
    }

    @Test
    void namesPastTheirBoundRefuseTheLoadAndForgedModuleNamesAreNotKept() throws Exception {
        // found when tried: 5 MB of input names went whole into the case key (a 10 MB matrix.json), and a module "name"
        // of 1,088 characters with ESC and HTML in it was stored raw
        String longName = "x".repeat(JobMessages.MAX_NAME_CHARS + 1);
        assertThatThrownBy(() -> JobMessages.toLoaded(JSON.readTree("{\"type\":\"loaded\",\"session\":\"s\",\"inputNames\":[\""
                + longName + "\"]}"))).isInstanceOf(PageJobException.class).hasMessageContaining("input name of " + longName.length());
        var many = JSON.createObjectNode().put("type", "loaded").put("session", "s");
        var names = many.putArray("outputNames");
        for (int i = 0; i <= JobMessages.MAX_NAMES; i++) {
            names.add("o" + i);
        }
        assertThatThrownBy(() -> JobMessages.toLoaded(many)).isInstanceOf(PageJobException.class)
                .hasMessageContaining((JobMessages.MAX_NAMES + 1) + " output names");
        String forged = "ort-wasm.jsep.wasm sha256:" + "\u001b[31m<script>".repeat(68);
        LoadedSession l = JobMessages.toLoaded(JSON.readTree("{\"type\":\"loaded\",\"session\":\"s\",\"inputNames\":[\"x\"],"
                + "\"modules\":[" + JSON.writeValueAsString(forged) + ",\"ort-wasm-simd-threaded.jsep.wasm\"]}"));
        assertThat(l.modules()).containsExactly("ort-wasm-simd-threaded.jsep.wasm");
        assertThat(l.inputNames()).containsExactly("x");
    }

    private static FrameCodec.Frame frame(String header) {
        try {
            return new FrameCodec.Frame((ObjectNode) JSON.readTree(header), List.of(), 0);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
