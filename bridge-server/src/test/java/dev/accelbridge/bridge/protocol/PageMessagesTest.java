package dev.accelbridge.bridge.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.core.MinDurations;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The bridge's messages as the page reads them: the envelope, the fields by name, nothing null sent. */
class PageMessagesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String text) throws Exception {
        return JSON.readTree(text);
    }

    @Test
    void aLoadIsWrittenAsDocumentedWithTheProvidersOwnOptionsBesideItsName() throws Exception {
        var load = new LoadJob("s4", new LoadJob.Model("9f0c", "/models/9f0c", "det", 1234,
                List.of(new LoadJob.ExternalFile("model.onnx_data", "/models/77aa"))),
                new LoadJob.Ep("webgpu", null, Map.of("preferredLayout", "NHWC")),
                new LoadJob.SessionOptions("all", 2, 2, null, null, null, null, Map.of("height", 640L), null, Map.of()));
        assertThat(json(PageMessages.text(load, "j3"))).isEqualTo(json("""
                {"v":1,"type":"load","job":"j3","session":"s4",
                 "model":{"id":"9f0c","url":"/models/9f0c","name":"det","byteLength":1234,
                          "externalData":[{"path":"model.onnx_data","url":"/models/77aa"}]},
                 "ep":{"name":"webgpu","preferredLayout":"NHWC"},
                 "options":{"graphOptimizationLevel":"all","logSeverityLevel":2,"numThreads":2,"freeDimensionOverrides":{"height":640}}}
                """));
    }

    @Test
    void anInlineModelHasNoUrlAndEmptyListsAndMapsAreNotSent() throws Exception {
        var load = new LoadJob("s1", new LoadJob.Model(null, null, "m", 10, List.of()), new LoadJob.Ep("webnn", "gpu", Map.of()),
                LoadJob.SessionOptions.at("disabled"));
        assertThat(json(PageMessages.text(load, "j1"))).isEqualTo(json("""
                {"v":1,"type":"load","job":"j1","session":"s1","model":{"name":"m","byteLength":10},
                 "ep":{"name":"webnn","deviceType":"gpu"},"options":{"graphOptimizationLevel":"disabled","logSeverityLevel":2}}
                """));
    }

    @Test
    void runsGenerationsAndControlMessagesCarryTheirFieldsOnly() throws Exception {
        var durations = new MinDurations(Duration.ofMillis(200), Duration.ofMillis(500));
        assertThat(json(PageMessages.text(RunJob.timed("s4", 1, 3, durations, true), "j5"))).isEqualTo(json("""
                {"v":1,"type":"run","job":"j5","session":"s4","warmups":1,"iterations":3,"chunkBytes":%d,"minDurationMs":500,
                 "maxSamples":%d,"warmupDurationMs":200,"sameInputs":true}
                """.formatted(FrameCodec.CHUNK_BYTES, durations.maxSamples(3))));
        assertThat(json(PageMessages.text(RunJob.firstOnly("s4"), "j6"))).isEqualTo(json("""
                {"v":1,"type":"run","job":"j6","session":"s4","warmups":0,"iterations":1,"firstOnly":true}"""));
        assertThat(json(PageMessages.text(new ToPage.Welcome("p7"), "ignored"))).isEqualTo(json("""
                {"v":1,"type":"welcome","pageId":"p7"}"""));
        assertThat(json(PageMessages.text(new ToPage.Failure("busy", "later"), null))).isEqualTo(json("""
                {"v":1,"type":"error","job":null,"code":"busy","message":"later"}"""));
        var spec = new GenerateJob.Spec(4, "input_ids", null, "position_ids", "logits", 2, 8, "float32", null, null, null,
                List.of(new GenerateJob.Cache("past_key_values.0.key", "present.0.key")), new long[] {5, 6});
        JsonNode gen = json(PageMessages.text(new GenerateJob("s2", 0, 0, 3, 0, 3, 1024, spec), "j9"));
        assertThat(gen.path("generation").has("attentionMask")).isFalse();
        assertThat(gen.path("generation").path("teacher").toString()).isEqualTo("[5,6]");
        assertThat(gen.path("generation").path("cache").get(0).path("present").asText()).isEqualTo("present.0.key");
    }

    @Test
    void aPagesAnswerIsReadAsItsRecordAndAValueOfAnotherTypeIsUnknownNotAnError() throws Exception {
        Loaded l = PageMessages.read(json("""
                {"v":1,"type":"loaded","job":"j3","session":"s4","sessionMs":"fast","fetchMs":3.5,"inputNames":["x",7,null],
                 "outputNames":{"not":"a list"},"numThreads":2.5,"warnings":[],"placement":null,"modules":["a.wasm sha256:00"]}
                """), Loaded.class);
        assertThat(l.session()).isEqualTo("s4");
        assertThat(l.sessionMs()).isNull();
        assertThat(l.fetchMs()).isEqualTo(3.5);
        assertThat(l.outputNames()).isNull();
        assertThat(l.numThreads()).as("a count that is not whole is unknown, not rounded").isNull();
        assertThat(l.modules()).containsExactly("a.wasm sha256:00");
        assertThat(l.inputNames()).as("a name that is not a string is unknown").containsExactly("x", null, null);
    }

    @Test
    void readStrictlyAFieldNoRecordDeclaresIsRefusedByItsPath() throws Exception {
        var strict = PageMessages.reader(true);
        JsonNode answer = json("""
                {"v":1,"type":"released","job":"j9","session":"s1","existed":true,"ledger":{"gpu":{"peakLiveBytes":10,"peakByte":9}}}""");
        assertThat(PageMessages.read(PageMessages.reader(false), answer, ReleasedAnswer.class).ledger().gpu().peakLiveBytes()).isEqualTo(10);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> PageMessages.read(strict, answer, ReleasedAnswer.class))
                .isInstanceOf(PageProtocolException.class)
                .hasMessageContaining("ReleasedAnswer.ledger.gpu.peakByte")
                .extracting(e -> ((PageProtocolException) e).code()).isEqualTo("undeclared-field");
    }
}
