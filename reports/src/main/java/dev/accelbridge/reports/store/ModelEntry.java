package dev.accelbridge.reports.store;

import dev.accelbridge.core.PublicApi;

import java.util.List;

/**
 * A model the store knows ({@link MatrixStore#recordModels}): its file's sha256 (null: not recorded), name,
 * default-domain opset and op types.
 */
@PublicApi
public record ModelEntry(String sha256, String name, long opset, List<String> ops) {
    public ModelEntry {
        ops = ops == null ? List.of() : List.copyOf(ops);
    }
}
