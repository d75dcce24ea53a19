package dev.accelbridge.core;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Memory around a case, in bytes, each figure where the platform tells it and -1 (or null, or empty) where it does not:
 * unknown is never 0. {@link #sources()} names where each known figure came from.
 *
 * @param rssBefore     resident set size before the model was loaded (the native process, or the browser's process tree)
 * @param rssAfter      resident set size after the timed iterations
 * @param rssPeak       the highest resident set size sampled during the case
 * @param gpu           a WebGPU case's buffer ledger from the page ({@link GpuLedger}); null when not WebGPU or not measured
 * @param wasmHeapBytes onnxruntime-web's WebAssembly memory after the case: a memory only grows, so this is the page's
 *                      heap at its highest so far
 * @param wasmGrowthBytes how much the case grew that memory (0: it fit in what the page had)
 * @param jsHeapBytes   the page's JS heap after the runs ({@code performance.memory.usedJSHeapSize}, Chromium only)
 * @param processes     the browser's processes by type at their peak ({@link ProcessPeak}), empty when not readable
 */
public record MemoryUsage(long rssBefore, long rssAfter, long rssPeak, GpuLedger gpu, long wasmHeapBytes, long wasmGrowthBytes,
                          long jsHeapBytes, List<ProcessPeak> processes) {
    /** Nothing measurable. */
    public static final MemoryUsage UNKNOWN = new MemoryUsage(-1, -1, -1);
    /** Where the WebAssembly figures come from. */
    public static final String WASM_SOURCE = "byteLength of onnxruntime-web's WebAssembly.Memory (grows only)";
    /** Where the JS heap comes from. */
    public static final String JS_HEAP_SOURCE = "performance.memory.usedJSHeapSize";
    /** Where the resident figures come from. */
    public static final String RSS_SOURCE = "/proc/PID/statm (VmRSS) of the process, or the sum over the browser's process tree";

    public MemoryUsage {
        processes = processes == null ? List.of() : List.copyOf(processes);
    }

    /** Resident memory alone. */
    public MemoryUsage(long rssBefore, long rssAfter, long rssPeak) {
        this(rssBefore, rssAfter, rssPeak, null, -1, -1, -1, List.of());
    }

    /** These figures with the page's GPU ledger. */
    public MemoryUsage withGpu(GpuLedger ledger) {
        return new MemoryUsage(rssBefore, rssAfter, rssPeak, ledger, wasmHeapBytes, wasmGrowthBytes, jsHeapBytes, processes);
    }

    /** These figures with the page's heaps. */
    public MemoryUsage withHeaps(long wasmHeap, long wasmGrowth, long jsHeap) {
        return new MemoryUsage(rssBefore, rssAfter, rssPeak, gpu, wasmHeap, wasmGrowth, jsHeap, processes);
    }

    /** These figures with the processes' peaks by type. */
    public MemoryUsage withProcesses(List<ProcessPeak> peaks) {
        return new MemoryUsage(rssBefore, rssAfter, rssPeak, gpu, wasmHeapBytes, wasmGrowthBytes, jsHeapBytes, peaks);
    }

    /** The peak of the processes of {@code type}, -1 when not measured. */
    public long processPeak(String type) {
        return processes.stream().filter(p -> p.type().equals(type)).mapToLong(ProcessPeak::peakBytes).findFirst().orElse(-1);
    }

    /** Each known figure's source, by the figure's name in the JSON form; nothing for what is unknown. */
    public Map<String, String> sources() {
        Map<String, String> m = new LinkedHashMap<>();
        if (rssPeak >= 0 || rssAfter >= 0) {
            m.put("rss", RSS_SOURCE);
        }
        if (gpu != null) {
            m.put("gpu", GpuLedger.SOURCE);
        }
        if (wasmHeapBytes >= 0) {
            m.put("wasmHeap", WASM_SOURCE);
        }
        if (jsHeapBytes >= 0) {
            m.put("jsHeap", JS_HEAP_SOURCE);
        }
        if (!processes.isEmpty()) {
            m.put("processes", ProcessPeak.SOURCE);
        }
        return m;
    }
}
