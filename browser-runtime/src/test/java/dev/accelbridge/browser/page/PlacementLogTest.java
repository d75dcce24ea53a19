package dev.accelbridge.browser.page;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.bridge.hub.ExecutionProviderSpec;
import dev.accelbridge.bridge.hub.LoadedSession;
import dev.accelbridge.bridge.hub.NodePlacement;
import dev.accelbridge.core.Placement;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where a session's nodes went, read from ONNX Runtime's own "Node placements" log by the page (placement.mjs, run by Node
 * on log lines of the form session_state.cc writes) and carried into the case's {@link Placement}. Found when tried: a
 * WebNN cell whose strict-placement session was refused was stored as run on the CPU EP, though most of its nodes may have
 * run on WebNN, and the native WebGPU EP's q8 cases said nothing of which nodes ran on the CPU.
 */
class PlacementLogTest {
    /** As onnxruntime-web 1.30 writes it (found when tried): each node a log record of its own. */
    private static final String LOG_130 = "["
            + "'2026 [V:onnxruntime:, session_state.cc:1377 VerifyEachNodeIsAssignedToAnEp] Node placements',"
            + "'2026 [V:onnxruntime:, session_state.cc:1383 VerifyEachNodeIsAssignedToAnEp]  Node(s) placed on [WebGpuExecutionProvider]. Number of nodes: 1',"
            + "'2026 [V:onnxruntime:, session_state.cc:1385 VerifyEachNodeIsAssignedToAnEp]   Gather (/embeddings/Gather)',"
            + "'2026 [V:onnxruntime:, session_state.cc:1383 VerifyEachNodeIsAssignedToAnEp]  Node(s) placed on [CPUExecutionProvider]. Number of nodes: 2',"
            + "'2026 [V:onnxruntime:, session_state.cc:1385 VerifyEachNodeIsAssignedToAnEp]   Unsqueeze (/Unsqueeze)',"
            + "'2026 [V:onnxruntime:, session_state.cc:1385 VerifyEachNodeIsAssignedToAnEp]   DynamicQuantizeLinear (/l0/q)',"
            + "'2026 [V:onnxruntime:, session_state.cc:186 CreateGraphInfo] SaveMLValueNameIndexMapping']";

    /** As the header's further lines (ONNX Runtime's source writes them so). */
    private static final String LOG = "["
            + "'2026 [V:onnxruntime:, session_state.cc:1377 VerifyEachNodeIsAssignedToAnEp] Node placements',"
            + "'2026 [V:onnxruntime:, session_state.cc:1386 VerifyEachNodeIsAssignedToAnEp]  Node(s) placed on [CPUExecutionProvider]. "
            + "Number of nodes: 3\\n  DynamicQuantizeLinear (/l0/q)\\n  MatMulInteger (/l0/mm)\\n  DynamicQuantizeLinear (/l1/q)\\n',"
            + "'2026 [V:onnxruntime:, session_state.cc:1386 VerifyEachNodeIsAssignedToAnEp]  Node(s) placed on [WebGpuExecutionProvider]. "
            + "Number of nodes: 2\\n  Add (a)\\n  Gelu (g)\\n',"
            + "'2026 [V:onnxruntime:, session_state.cc:186 CreateGraphInfo] SaveMLValueNameIndexMapping']";

    @Test
    void thePagesReadingOfOrtsLogNamesTheNodesOnTheCpu() throws Exception {
        Path module = Path.of("src/main/web/page/placement.mjs").toAbsolutePath();
        String out = NodeScript.run("placement", "import { nodePlacement } from '" + module.toUri() + "';\n"
                + "console.log(JSON.stringify(nodePlacement(" + LOG + ")));\n"
                + "console.log(JSON.stringify(nodePlacement(['x  All nodes placed on [CPUExecutionProvider]. Number of nodes: 162'])));\n"
                + "console.log(JSON.stringify(nodePlacement(['no placement here'])));\n"
                + "console.log(JSON.stringify(nodePlacement(" + LOG_130 + ")));\n");
        List<String> lines = out.lines().toList();
        var mapper = new ObjectMapper();
        NodePlacement mixed = NodePlacement.of(mapper.readTree(lines.get(0)));
        assertThat(mixed.counts()).containsEntry("CPUExecutionProvider", 3).containsEntry("WebGpuExecutionProvider", 2);
        assertThat(mixed.nodesOn("CPUExecutionProvider")).containsExactly("DynamicQuantizeLinear (/l0/q)", "MatMulInteger (/l0/mm)",
                "DynamicQuantizeLinear (/l1/q)");
        assertThat(mixed.describe()).isEqualTo("ONNX Runtime's node placements: 3 of 5 nodes on CPUExecutionProvider "
                + "(DynamicQuantizeLinear x2, MatMulInteger x1), 2 of 5 nodes on WebGpuExecutionProvider (Add x1, Gelu x1)");
        assertThat(NodePlacement.of(mapper.readTree(lines.get(1))).counts()).containsEntry("CPUExecutionProvider", 162);
        assertThat(lines.get(2)).isEqualTo("null");
        NodePlacement v130 = NodePlacement.of(mapper.readTree(lines.get(3)));
        assertThat(v130.nodesOn("CPUExecutionProvider")).containsExactly("Unsqueeze (/Unsqueeze)", "DynamicQuantizeLinear (/l0/q)");
        assertThat(v130.nodesOn("WebGpuExecutionProvider")).containsExactly("Gather (/embeddings/Gather)");

        // a refused session's placement names its CPU nodes; without the log, it says they are unknown
        LoadedSession refused = new LoadedSession("s", 1, 1, List.of(), List.of(), 1, List.of(), false,
                "fallback to CPU EP has been explicitly disabled", List.of(), mixed);
        Placement p = refused.placement(ExecutionProviderSpec.of(dev.accelbridge.core.BackendId.WEBGPU, dev.accelbridge.core.OrtWebEngine.WEBGPU_EP));
        assertThat(p.offNodes()).hasSize(3);
        assertThat(p.ranOn()).isEqualTo("WebGpuExecutionProvider and CPUExecutionProvider (3 nodes there)");
        assertThat(p.basis()).startsWith("ONNX Runtime's node placements: 3 of 5 nodes on CPUExecutionProvider");
        LoadedSession unread = new LoadedSession("s", 1, 1, List.of(), List.of(), 1, List.of(), false, "refused", List.of(), null);
        assertThat(unread.placement(ExecutionProviderSpec.of(dev.accelbridge.core.BackendId.WEBGPU, dev.accelbridge.core.OrtWebEngine.WEBGPU_EP)).ranOn()).endsWith("(which nodes: unknown)");
    }
}
