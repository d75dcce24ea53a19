package dev.accelbridge.reports.store;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.Bisection;
import dev.accelbridge.core.ColdStart;
import dev.accelbridge.core.ComputedPrecision;
import dev.accelbridge.core.OpProfile;
import dev.accelbridge.core.Placement;
import dev.accelbridge.core.Readout;
import dev.accelbridge.core.Recreate;

import java.util.List;
import java.util.Map;

/**
 * Each part of a case's drill-down as the store and every JSON form write it, as records serialised whole by
 * {@link ResultJson#MAPPER}; a measured figure keeps {@link ResultJson#num}'s rule ({@link Figure}). {@link AnalysisJson}
 * writes them and reads them back.
 */
final class AnalysisForms {
    private AnalysisForms() {
    }

    /** What a user reads off the outputs against the reference's. */
    record ReadoutForm(String kind, int items, @Figure double minCosine, @Figure double maxAbsErr, int agree, String note) {
        static ReadoutForm of(Readout r) {
            return new ReadoutForm(r.kind().id(), r.items(), r.minCosine(), r.maxAbsErr(), r.agree(), r.note());
        }
    }

    /** Where a half-precision variant's arithmetic ran. */
    record ComputedForm(int insertedCasts, boolean inFloat32, String basis, List<String> float32Inside) {
        static ComputedForm of(ComputedPrecision c) {
            return new ComputedForm(c.insertedCasts(), c.inFloat32(), c.basis(), c.float32Inside());
        }
    }

    /** Where the session's nodes ran. */
    record PlacementForm(String requested, boolean onRequested, String ranOn, List<String> offNodes, String basis) {
        static PlacementForm of(Placement p) {
            return new PlacementForm(p.requested(), p.onRequested(), p.ranOn(), p.offNodes(), p.basis());
        }
    }

    /** The first diverging node and the path to it. */
    record BisectionForm(String outcome, String node, String opType, @Figure double maxAbsErr, String reproDir,
                         @Figure double tolerance, String against, String backend, ObjectNode attributes,
                         List<String> inputs, List<String> outputs, List<StepForm> path, int compared, String note,
                         Bisection.NonFinite nonFinite) {
        static BisectionForm of(Bisection b) {
            return new BisectionForm(b.outcome().name(), b.node(), b.opType(), b.maxAbsErr(), b.reproDir(), b.tolerance(), b.against(),
                    b.backend() == null ? null : b.backend().id(), inOrder(b.attributes()), b.inputShapes(), b.outputShapes(),
                    b.path().stream().map(s -> new StepForm(s.node(), s.opType(), s.maxAbsErr())).toList(), b.compared(), b.note(),
                    b.nonFinite());
        }
    }

    /**
     * The node's attributes in the model's order: an object, not a map, which the mapper writes sorted by name (found when
     * read: a map here would have reordered a node's attributes).
     */
    private static ObjectNode inOrder(Map<String, String> attributes) {
        ObjectNode o = ResultJson.MAPPER.createObjectNode();
        attributes.forEach(o::put);
        return o;
    }

    /** One node on a bisection's path. */
    record StepForm(String node, String opType, @Figure double maxAbsErr) {
    }

    /** Where the time goes, per op type and for the slowest nodes. */
    record ProfileForm(List<OpForm> ops, List<String> nodesOffProvider, int memcpy, String requestedProvider,
                       @Figure double totalMs, @Figure double profiledP50Ms, int iterations, String source,
                       List<NodeForm> topNodes, String note) {
        static ProfileForm of(OpProfile p) {
            return new ProfileForm(p.ops().stream().map(t -> new OpForm(t.opType(), t.nodes(), t.ms(), t.share())).toList(),
                    p.nodesOffProvider(), p.memcpy(), p.requestedProvider(), p.totalMs(), p.profiledP50Ms(), p.iterations(), p.source(),
                    p.topNodes().stream().map(n -> new NodeForm(n.node(), n.opType(), n.provider(), n.ms(), n.share())).toList(),
                    p.note());
        }
    }

    /** One op type's time. */
    record OpForm(String opType, int nodes, @Figure double ms, @Figure double share) {
    }

    /** One of the slowest nodes. */
    record NodeForm(String node, String opType, String provider, @Figure double ms, @Figure double share) {
    }

    /** Fetch, create and first run against the warm p50; {@code freshPage} only where the page said. */
    record ColdStartForm(@Figure double fetchMs, @Figure double createMs, @Figure double firstRunMs, @Figure double warmP50Ms,
                         @Figure double firstRunOverheadMs, @JsonInclude(JsonInclude.Include.NON_NULL) Boolean freshPage) {
        static ColdStartForm of(ColdStart c) {
            return new ColdStartForm(c.fetchMs(), c.createMs(), c.firstRunMs(), c.warmP50Ms(), c.firstRunOverheadMs(), c.freshPage());
        }
    }

    /** The re-creation leak check. */
    record RecreateForm(int cycles, @Figure double rssGrowthPerCycleBytes, @Figure double heapGrowthPerCycleBytes,
                        @Figure double gpuGrowthPerCycleBytes, @Figure double wasmGrowthPerCycleBytes, boolean suspectedLeak,
                        List<CycleForm> samples, String note) {
        static RecreateForm of(Recreate r) {
            return new RecreateForm(r.cycles(), r.rssGrowthPerCycleBytes(), r.heapGrowthPerCycleBytes(), r.gpuGrowthPerCycleBytes(),
                    r.wasmGrowthPerCycleBytes(), r.suspectedLeak(), r.samples().stream().map(c -> new CycleForm(c.cycle(), c.rssBytes(),
                    c.heapBytes(), c.gpuBytes(), c.wasmBytes(), c.createMs(), c.runMs())).toList(), r.note());
        }
    }

    /** One re-creation. */
    record CycleForm(int cycle, long rssBytes, long heapBytes, long gpuBytes, long wasmBytes, @Figure double createMs,
                     @Figure double runMs) {
    }
}
