package dev.accelbridge.reports.store;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.accelbridge.core.GpuLedger;
import dev.accelbridge.core.MemoryUsage;
import dev.accelbridge.core.ProcessPeak;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.accelbridge.reports.store.ExportRules.array;
import static dev.accelbridge.reports.store.ExportRules.object;
import static dev.accelbridge.reports.store.ExportRules.stringMap;
import static dev.accelbridge.reports.store.ExportRules.text;
import static dev.accelbridge.reports.store.ExportRules.whole;

/**
 * A case's memory ({@link MemoryUsage}) as JSON: the {@code memory} field of {@link ResultForm}, and the store's
 * {@code memory_detail} column (what the three resident columns do not hold). What was not measured is absent (the
 * resident figures keep their -1), and {@code sources} names where each present figure came from.
 *
 * @param rssBefore       resident memory before the case, -1 when not measured
 * @param rssAfter        after its timed runs, -1 when not measured
 * @param rssPeak         its highest sample, -1 when not measured
 * @param gpu             the page's GPU ledger of a WebGPU case
 * @param wasmHeapBytes   onnxruntime-web's WebAssembly memory after the case
 * @param wasmGrowthBytes how much the case grew it
 * @param jsHeapBytes     the page's JS heap
 * @param processes       the browser's processes by type at their peak
 * @param sources         each present figure's source
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record MemoryForm(long rssBefore, long rssAfter, long rssPeak, GpuLedger gpu, Long wasmHeapBytes, Long wasmGrowthBytes,
                  Long jsHeapBytes, List<ProcessPeak> processes, Map<String, String> sources) {
    private static final ExportRules.Kind GPU = ExportRules.kind(Set.of("peakBytes"),
            "peakBytes", whole(0, Long.MAX_VALUE), "allocatedBytes", whole(0, Long.MAX_VALUE), "leftLiveBytes", whole(0, Long.MAX_VALUE),
            "largestBufferBytes", whole(0, Long.MAX_VALUE), "buffers", whole(0, Integer.MAX_VALUE),
            "maxBufferSize", whole(-1, Long.MAX_VALUE), "maxStorageBufferBindingSize", whole(-1, Long.MAX_VALUE));
    private static final ExportRules.Kind PROCESS = ExportRules.kind(Set.of("type", "peakBytes"),
            "type", text(), "peakBytes", whole(0, Long.MAX_VALUE));
    /** The export's rules for this form's fields ({@link ExportRules}). */
    static final ExportRules.Kind SCHEMA = ExportRules.kind(Set.of(),
            "rssBefore", whole(-1, Long.MAX_VALUE), "rssAfter", whole(-1, Long.MAX_VALUE), "rssPeak", whole(-1, Long.MAX_VALUE),
            "gpu", object(GPU), "wasmHeapBytes", whole(0, Long.MAX_VALUE), "wasmGrowthBytes", whole(0, Long.MAX_VALUE),
            "jsHeapBytes", whole(0, Long.MAX_VALUE), "processes", array(object(PROCESS), 64), "sources", stringMap());

    static MemoryForm of(MemoryUsage m) {
        return new MemoryForm(m.rssBefore(), m.rssAfter(), m.rssPeak(), m.gpu(), known(m.wasmHeapBytes()), known(m.wasmGrowthBytes()),
                known(m.jsHeapBytes()), m.processes().isEmpty() ? null : m.processes(), m.sources().isEmpty() ? null : m.sources());
    }

    MemoryUsage toUsage() {
        return new MemoryUsage(rssBefore, rssAfter, rssPeak, gpu, unknown(wasmHeapBytes), unknown(wasmGrowthBytes), unknown(jsHeapBytes),
                processes);
    }

    /** The store's column: what the resident columns do not hold, null when nothing more was measured. */
    static String column(MemoryUsage m) {
        if (m.gpu() == null && m.wasmHeapBytes() < 0 && m.jsHeapBytes() < 0 && m.processes().isEmpty()) {
            return null;
        }
        try {
            return ResultJson.MAPPER.writeValueAsString(of(m));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The resident figures from their columns, with what {@code column} holds beside them. */
    static MemoryUsage read(long rssBefore, long rssAfter, long rssPeak, String column) {
        if (column == null) {
            return new MemoryUsage(rssBefore, rssAfter, rssPeak);
        }
        try {
            MemoryForm f = ResultJson.MAPPER.readValue(column, MemoryForm.class);
            // the resident columns are what the store holds for those three; the column, the rest
            return new MemoryForm(rssBefore, rssAfter, rssPeak, f.gpu(), f.wasmHeapBytes(), f.wasmGrowthBytes(), f.jsHeapBytes(),
                    f.processes(), null).toUsage();
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("the memory_detail column is not valid: " + e.getOriginalMessage());
        }
    }

    private static Long known(long v) {
        return v < 0 ? null : v;
    }

    private static long unknown(Long v) {
        return v == null ? -1 : v;
    }
}
