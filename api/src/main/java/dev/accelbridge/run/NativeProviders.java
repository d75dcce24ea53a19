package dev.accelbridge.run;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendKind;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.BackendUnavailableException;
import dev.accelbridge.core.RuntimeVersionProviders;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The native backend providers found by {@link ServiceLoader}; for each backend, the one of highest priority
 * (as DJL picks an engine). Bridge code never names a runner class.
 */
@PublicApi
public final class NativeProviders implements AutoCloseable {
    private final List<BackendProvider> all = new ArrayList<>();
    private final Map<BackendId, BackendProvider> chosen = new EnumMap<>(BackendId.class);
    /** Providers of other ONNX Runtime versions, started when first asked for. */
    private final Map<String, BackendProvider> others = new java.util.LinkedHashMap<>();

    /** Loads the providers on the class path. */
    public static NativeProviders load() {
        NativeProviders p = new NativeProviders();
        for (BackendProvider bp : ServiceLoader.load(BackendProvider.class)) {
            p.all.add(bp);
        }
        p.all.sort(Comparator.comparingInt(BackendProvider::priority).reversed());
        for (BackendProvider bp : p.all) {
            for (BackendId b : bp.backends()) {
                if (b.kind() == BackendKind.NATIVE) {
                    p.chosen.putIfAbsent(b, bp);
                }
            }
        }
        return p;
    }

    /** The provider of a native backend. */
    public BackendProvider forBackend(BackendId backend) {
        BackendProvider bp = chosen.get(backend);
        if (bp == null) {
            throw new AccelbridgeException("No provider on the class path serves native backend " + backend,
                    "the native-runner module registers dev.accelbridge.core.BackendProvider; rebuild with ./setup.sh build");
        }
        return bp;
    }

    /** The version of the runtime this process's CPU provider loaded (ONNX Runtime's), or null when it did not load. */
    public String runtimeVersion() {
        return forBackend(BackendId.CPU).runtimeVersion().orElse(null);
    }

    /**
     * A provider of ONNX Runtime {@code version} for every native backend: this process's own providers when it is the version
     * loaded here, else one started by a {@link RuntimeVersionProviders} on the class path (a runner process of its own),
     * kept until {@link #close()}.
     *
     * @throws BackendUnavailableException when no factory can make it, or it cannot be had or started (the evidence)
     */
    public synchronized BackendProvider atVersion(String version) {
        BackendProvider p = others.get(version);
        if (p != null) {
            return p;
        }
        RuntimeVersionProviders f = ServiceLoader.load(RuntimeVersionProviders.class).findFirst().orElseThrow(() ->
                new BackendUnavailableException("Nothing on the class path runs ONNX Runtime " + version + " beside this process's "
                        + runtimeVersion(), "the native-runner module registers dev.accelbridge.core.RuntimeVersionProviders; rebuild"));
        p = f.at(version);
        others.put(version, p);
        return p;
    }

    /** The providers found, highest priority first. */
    public List<BackendProvider> providers() {
        return List.copyOf(all);
    }

    @Override
    public void close() {
        List<BackendProvider> toClose = new ArrayList<>(all);
        synchronized (this) {
            toClose.addAll(others.values());
            others.clear();
        }
        for (BackendProvider bp : toClose) {
            try {
                bp.close();
            } catch (Exception e) {
                // Closing one provider must not keep the others open.
            }
        }
    }
}
