package dev.accelbridge.reports.store;

import dev.accelbridge.core.ModelCost;
import dev.accelbridge.core.PublicApi;

import java.util.List;

/**
 * A model the store knows ({@link MatrixStore#recordModels}): its file's sha256 (null: not recorded), name,
 * default-domain opset, op types and what one inference costs (unknown where not known).
 */
@PublicApi
public record ModelEntry(String sha256, String name, long opset, List<String> ops, ModelCost cost) {
    public ModelEntry {
        ops = ops == null ? List.of() : List.copyOf(ops);
        cost = cost == null ? ModelCost.UNKNOWN : cost;
    }

    /** A model whose cost is not known. */
    public ModelEntry(String sha256, String name, long opset, List<String> ops) {
        this(sha256, name, opset, ops, ModelCost.UNKNOWN);
    }
}
