package dev.accelbridge.bridge.run;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendKind;
import dev.accelbridge.core.BackendProvider;

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
public final class NativeProviders implements AutoCloseable {
    private final List<BackendProvider> all = new ArrayList<>();
    private final Map<BackendId, BackendProvider> chosen = new EnumMap<>(BackendId.class);

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

    /** The providers found, highest priority first. */
    public List<BackendProvider> providers() {
        return List.copyOf(all);
    }

    @Override
    public void close() {
        for (BackendProvider bp : all) {
            try {
                bp.close();
            } catch (Exception e) {
                // Closing one provider must not keep the others open.
            }
        }
    }
}
