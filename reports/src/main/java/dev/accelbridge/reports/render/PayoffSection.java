package dev.accelbridge.reports.render;

import dev.accelbridge.reports.recommend.WebGpuPayoff;

import java.util.ArrayList;
import java.util.List;

/**
 * Where WebGPU pays off ({@link WebGpuPayoff}): per host, browser lane and adapter, the sweep width from which WebGPU
 * overtakes wasm and native CPU. Left out of a report whose runs did not sweep on WebGPU.
 */
final class PayoffSection {
    private PayoffSection() {
    }

    static Section of(Matrix m) {
        List<Section.Row> rows = new ArrayList<>();
        for (WebGpuPayoff p : WebGpuPayoff.of(m.cells().stream().map(Cell::result).toList())) {
            rows.add(Section.Row.of(null, hostName(m, p.host()), p.lane().key(), p.adapter(),
                    p.note() != null ? p.note() : p.overWasm().map(c -> c.words(WebGpuPayoff.UNIT)).orElse("not measured on both"),
                    p.note() != null ? RowFigures.ABSENT : p.overNative().map(c -> c.words(WebGpuPayoff.UNIT)).orElse("not measured on both")));
        }
        return Section.table("webgpu-payoff", "Where WebGPU pays off (the width sweep)", rows.isEmpty() ? null
                        : "The width from which a browser lane's WebGPU is faster than its wasm, and than the host's native CPU, at "
                        + "that width and every wider one measured on both (p50 against p50; only figures that stand as speeds).",
                new Section.Table(List.of("host", "browser lane", "adapter", "WebGPU over wasm", "WebGPU over native CPU"), rows), null);
    }

    private static String hostName(Matrix m, String fingerprint) {
        var h = m.hosts().get(fingerprint);
        return h == null || h.hostname() == null ? fingerprint : h.hostname();
    }
}
