package dev.accelbridge.reports.render;

import com.fasterxml.jackson.databind.JsonNode;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.ExitPolicy;
import dev.accelbridge.reports.history.ChangeKind;
import dev.accelbridge.reports.history.RegressionDetector;
import dev.accelbridge.reports.store.MatrixStore;
import dev.accelbridge.reports.store.ResultJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.SchemaFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class ReportWriterTest {
    @TempDir
    Path dir;

    @Test
    void writesAllFourReportsFromTheStore() throws Exception {
        Path out = dir.resolve("out");
        List<Path> files;
        Matrix m;
        try (MatrixStore s = MatrixStore.open(dir.resolve("m.duckdb"))) {
            String latest = ReportFixture.fill(s);
            ReportWriter.Written w = ReportWriter.write(s, Optional.of(latest), out, RegressionDetector.defaults());
            files = w.files();
            m = w.matrix();
        }
        assertThat(files).extracting(p -> p.getFileName().toString())
                .containsExactly("report.html", "report.md", "matrix.json", "junit.xml");

        // the webgpu slowdown is flagged, nothing else is
        assertThat(m.regressions()).hasSize(1);
        assertThat(m.regressions().get(0).column()).startsWith("webgpu");
        assertThat(m.regressions().get(0).row()).isEqualTo("text/bert-tiny");

        JsonNode json = ResultJson.MAPPER.readTree(out.resolve("matrix.json").toFile());
        assertThat(json.path("cells")).hasSize(9);
        assertThat(json.path("regressions").asInt()).isEqualTo(1);
        JsonNode cpu = find(json, "text/bert-tiny", "cpu", "native");
        assertThat(cpu.path("grade").asText()).isEqualTo("HIGH");
        assertThat(cpu.path("score").asDouble()).isEqualTo(87.5);
        JsonNode fb = find(json, "vision/convnet", "webnn-gpu", "chromium");
        assertThat(fb.path("status").asText()).isEqualTo("FELL_BACK");
        assertThat(fb.path("fallbackPath")).hasSize(2);
        assertThat(fb.path("fallbackPath").get(0).path("reason").asText()).contains("No available adapters");
        assertThat(fb.path("grade").asText()).isEqualTo("MEDIUM");
        assertThat(fb.path("diagnostics").get(0).path("code").asText()).isEqualTo("fell-back");
        assertThat(fb.path("diagnostics").get(0).path("severity").asText()).isEqualTo("warning");
        assertThat(fb.path("vsNative").asDouble()).isBetween(1.3, 1.7);
        JsonNode reg = find(json, "text/bert-tiny", "webgpu", "chromium");
        assertThat(reg.path("change").path("kind").asText()).isEqualTo("REGRESSION");
        assertThat(reg.path("history")).hasSize(ReportFixture.RUNS);
        assertThat(reg.path("provenance").path("softwareAdapter").asBoolean()).isFalse();
        assertThat(reg.path("acceleration").asText()).isEqualTo("hardware");
        assertThat(reg.path("grade").asText()).isEqualTo("LOW"); // 60 ms against 2 ms native: 30× slower
        // the software adapter's wrong convnet keeps its label
        assertThat(find(json, "vision/convnet", "webgpu", "chromium").path("acceleration").asText()).isEqualTo("software adapter");
        assertThat(find(json, "audio/whisper-tiny", "cuda", "native").path("grade").asText()).isEqualTo("NONE");

        String md = Files.readString(out.resolve("report.md"));
        assertThat(md).contains("## Matrix — host alpha", "| text/bert-tiny |", "| REGRESSION | text/bert-tiny webgpu [chromium",
                "unavailable: 0 CUDA devices", "software adapter", "## Fallbacks", "→ wasm");

        validateJUnit(out.resolve("junit.xml"));
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(out.resolve("junit.xml").toFile());
        NodeList cases = doc.getElementsByTagName("testcase");
        assertThat(cases.getLength()).isEqualTo(9);
        assertThat(doc.getElementsByTagName("failure").getLength()).isEqualTo(2); // FAILED + WRONG_OUTPUT
        assertThat(doc.getElementsByTagName("skipped").getLength()).isEqualTo(2); // UNAVAILABLE + UNSUPPORTED
        NodeList sk = doc.getElementsByTagName("skipped");
        List<String> messages = new java.util.ArrayList<>();
        for (int i = 0; i < sk.getLength(); i++) {
            messages.add(((Element) sk.item(i)).getAttribute("message"));
        }
        assertThat(messages).anySatisfy(msg -> assertThat(msg).contains("0 CUDA devices", "<&\"'>"))
                .anySatisfy(msg -> assertThat(msg).startsWith("UNSUPPORTED: op STFT"));
        Element cpuCase = null;
        for (int i = 0; i < cases.getLength(); i++) {
            Element e = (Element) cases.item(i);
            if (e.getAttribute("classname").equals("text.bert-tiny") && e.getAttribute("name").equals("cpu [native+ort@1.29.0]")) {
                cpuCase = e;
            }
        }
        assertThat(cpuCase).isNotNull();
        assertThat(Double.parseDouble(cpuCase.getAttribute("time"))).isGreaterThan(0);

        ExitPolicy.Decision d = ExitPolicy.defaults().decide(m.cells().stream().map(Cell::result).toList(),
                m.cells().stream().map(Cell::change).toList());
        assertThat(d.code()).isEqualTo(1);
        assertThat(String.join("\n", d.reasons())).contains("1 case(s) failed", "1 case(s) wrong-output", "1 case(s) regression");
    }

    @Test
    void wholeStoreScopeShowsTheNewestResultOfEveryCell() {
        try (MatrixStore s = MatrixStore.open(dir.resolve("m.duckdb"))) {
            ReportFixture.fill(s);
            Matrix m = MatrixBuilder.build(s, Optional.empty(), RegressionDetector.defaults());
            assertThat(m.scope()).isEqualTo("latest per cell");
            assertThat(m.cells()).hasSize(9);
            assertThat(m.cells()).allSatisfy(c -> assertThat(c.history()).hasSize(ReportFixture.RUNS));
            assertThat(m.cells().stream().filter(c -> c.change() != null && c.change().kind() == ChangeKind.REGRESSION)).hasSize(1);
            assertThat(m.cells().stream().filter(c -> c.result().status() == Status.PASSED)).hasSize(4);
        }
    }

    private static JsonNode find(JsonNode json, String row, String requested, String lane) {
        for (JsonNode c : json.path("cells")) {
            if ((c.path("suite").asText() + "/" + c.path("model").asText()).equals(row)
                    && c.path("requested").asText().equals(requested) && c.path("lane").asText().equals(lane)) {
                return c;
            }
        }
        throw new AssertionError("no cell " + row + " " + requested + " " + lane);
    }

    static void validateJUnit(Path xml) throws Exception {
        SchemaFactory f = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
        var schema = f.newSchema(new StreamSource(ReportWriterTest.class.getResourceAsStream("/junit-10.xsd")));
        schema.newValidator().validate(new StreamSource(xml.toFile()));
    }
}
