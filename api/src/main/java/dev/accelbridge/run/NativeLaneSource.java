package dev.accelbridge.run;

import dev.accelbridge.core.LaneSide;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.VersionAxes;
import dev.accelbridge.core.VersionAxis;
import dev.accelbridge.nativerunner.process.OrtAxis;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The native side's lanes: this process's ONNX Runtime (the providers {@link NativeProviders} found) at the native axes'
 * pinned versions, and each other ONNX Runtime version in a runner process of its own ({@link NativeProviders#atVersion}),
 * so native libraries never mix. A target has one lane, probed once: its cases run one at a time, and the reference phase
 * and the target's own cases share it. The providers belong to the {@link NativeProviders}' owner, who closes them.
 */
final class NativeLaneSource implements LaneSource {
    private final NativeProviders natives;
    private final RunAccount account;
    private final Map<String, String> runtimeVersions;
    private final Map<LaneId, Lane> opened = new ConcurrentHashMap<>();

    NativeLaneSource(NativeProviders natives, RunAccount account, Map<String, String> runtimeVersions) {
        this.natives = natives;
        this.account = account;
        this.runtimeVersions = runtimeVersions;
    }

    /** This process's native lane: each native axis at its pinned version (ONNX Runtime as loaded here). */
    LaneId here() {
        LaneId h = LaneId.NATIVE;
        for (VersionAxis a : LaneSide.NATIVE.axes()) {
            h = h.with(a, a.pinned());
        }
        return h;
    }

    /**
     * The lane of {@code target}, probed on {@code backends} the first time it is asked for.
     *
     * @throws dev.accelbridge.core.BackendUnavailableException when that ONNX Runtime version cannot be had or started here
     */
    @Override
    public synchronized Lane open(LaneId target, Collection<BackendId> backends) {
        Lane lane = opened.get(target);
        if (lane != null) {
            return lane;
        }
        Function<BackendId, BackendProvider> providers;
        String name;
        if (target.equals(here())) {
            providers = natives::forBackend;
            name = "native";
        } else {
            String ort = target.version(OrtAxis.DIMENSION.name());
            BackendProvider p = account.time(RunAccount.Part.PROBES, () -> natives.atVersion(ort));
            providers = b -> p;
            name = "native ONNX Runtime " + ort;
        }
        Map<BackendId, Availability> probes = new LinkedHashMap<>();
        for (BackendId b : backends) {
            probes.put(b, account.time(RunAccount.Part.PROBES, () -> providers.apply(b).probe(b)));
        }
        lane = new Lane(target, name, providers, probes, Provenance.of(null, null, driver(target), null, null, List.of(),
                VersionAxes.recorded(runtimeVersions, target)));
        opened.put(target, lane);
        return lane;
    }

    /** One lane per target: a native process runs one case at a time. */
    @Override
    public int maxLanes() {
        return 1;
    }

    @Override
    public boolean warm(LaneId target) {
        return opened.containsKey(target);
    }

    @Override
    public String driver(LaneId target) {
        return "djl";
    }

    @Override
    public void close() {
        opened.clear();
    }
}
