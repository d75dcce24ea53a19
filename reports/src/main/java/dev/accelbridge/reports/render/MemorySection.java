package dev.accelbridge.reports.render;

import dev.accelbridge.core.Bytes;
import dev.accelbridge.core.GpuLedger;
import dev.accelbridge.core.MemoryUsage;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.core.ProcessPeak;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Timings;

import java.util.ArrayList;
import java.util.List;

/**
 * The report's memory section: per executed case, what it held next to what it took, sorted by family and backend as the
 * matrix is: the page's GPU ledger (peak live bytes above what was live before the case, what its release left, its
 * largest buffer against the device's limit), onnxruntime-web's WebAssembly memory and how much the case grew it, the JS
 * heap, the browser's renderer and GPU process at their peak, and the resident peak (process or process tree). A figure
 * not measured is a dash, never 0; each column's source is said once, under the table. A case judged on another cell's
 * measurement (a shared fallback) has that cell's figures and is not repeated.
 */
final class MemorySection {
    private MemorySection() {
    }

    static Section of(Matrix m) {
        List<Section.Row> rows = new ArrayList<>();
        for (Cell c : m.cells()) {
            RunResult r = c.result();
            MemoryUsage u = r.memory();
            if (!r.status().executed() || r.sharedFigures() || u.sources().isEmpty()) {
                continue;
            }
            GpuLedger g = u.gpu();
            Timings t = r.timings().orElse(null);
            rows.add(Section.Row.of(g != null && g.leftLiveBytes() > g.peakBytes() / 100 ? "warn" : null, c.host(), c.row(), c.ranOn(),
                    t == null ? RowFigures.ABSENT : Fmt.ms(t.p50Ms()),
                    g == null ? RowFigures.ABSENT : Bytes.iec(g.peakBytes()) + OrtWebEngine.ranIn(r.lane())
                            .map(OrtWebEngine::ledgerCaveat).map(x -> " (may read low: JSEP's pool)").orElse(""),
                    g == null ? RowFigures.ABSENT : Bytes.iec(g.leftLiveBytes()),
                    g == null ? RowFigures.ABSENT : Bytes.iec(g.largestBufferBytes()) + (g.maxBufferSize() > 0 ? " of " + Bytes.iec(g.maxBufferSize()) : ""),
                    known(u.wasmHeapBytes()) + (u.wasmGrowthBytes() > 0 ? " (+" + Bytes.iec(u.wasmGrowthBytes()) + ")" : ""),
                    known(u.jsHeapBytes()),
                    process(u, "renderer") + " / " + process(u, "gpu-process"),
                    known(u.rssPeak())));
        }
        return Section.table("memory", "Memory: what each case held, beside its p50", rows.isEmpty() ? null
                        : "GPU: " + GpuLedger.SOURCE + ", counted from what was live when the case's session was made (on JSEP: "
                        + OrtWebEngine.JSEP.ledgerCaveat() + "); left: still "
                        + "live after its release (an engine's cache, or a leak). wasm heap: " + MemoryUsage.WASM_SOURCE
                        + ", with how much the case grew it. JS heap: " + MemoryUsage.JS_HEAP_SOURCE + ". renderer / GPU process: "
                        + ProcessPeak.SOURCE + ", their highest sample. RSS peak: " + MemoryUsage.RSS_SOURCE
                        + ". A dash: not measured there.",
                new Section.Table(List.of("host", "model", "backend", "p50 ms", "GPU peak", "GPU left", "largest buffer", "wasm heap",
                        "JS heap", "renderer / GPU process", "RSS peak"), rows), null);
    }

    private static String known(long bytes) {
        return bytes < 0 ? RowFigures.ABSENT : Bytes.iec(bytes);
    }

    private static String process(MemoryUsage u, String type) {
        return known(u.processPeak(type));
    }
}
