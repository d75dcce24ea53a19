package dev.accelbridge.bridge.run;

import dev.accelbridge.browser.launch.BrowserKind;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.fallback.Chain;
import dev.accelbridge.fallback.FallbackPolicy;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one run does: which models (suites and user folders), which backends along which chains, in which
 * browsers, and how many iterations.
 *
 * @param suites        the built-in suites to run (may be empty when only user models are given)
 * @param userModels    user model folders or files ({@code --model})
 * @param userFamily    the family of the user models when given ({@code --family}); inferred otherwise
 * @param largeModels   realistic model sizes instead of the small defaults
 * @param seed          the seed of the generated models' weights and inputs
 * @param backends      the requested backends
 * @param chains        the fallback chain of every requested backend
 * @param policy        when a run-time result moves on to the next hop
 * @param browsers      the browsers that run the browser backends
 * @param driver        how browsers are launched
 * @param gridUrl       a Selenium Grid for {@link DriverKind#GRID}
 * @param headless      headless browsers (the default)
 * @param warmups       warm-up iterations per case
 * @param iterations    timed iterations per case
 * @param caseTimeout   limit for one case (load + warm-up + timed)
 * @param modelCache    where generated models are written
 */
public record RunPlan(List<ModelFamily> suites, List<Path> userModels, Optional<ModelFamily> userFamily,
                      boolean largeModels, long seed, List<BackendId> backends, Map<BackendId, Chain> chains,
                      FallbackPolicy policy, List<BrowserKind> browsers, DriverKind driver, Optional<URI> gridUrl,
                      boolean headless, int warmups, int iterations, Duration caseTimeout, Path modelCache) {
    public RunPlan {
        suites = List.copyOf(suites);
        userModels = List.copyOf(userModels);
        backends = List.copyOf(backends);
        chains = Map.copyOf(chains);
        browsers = List.copyOf(browsers);
    }

    /** The requested browser backends. */
    public List<BackendId> browserBackends() {
        return backends.stream().filter(BackendId::isBrowser).toList();
    }

    /** The requested native backends. */
    public List<BackendId> nativeBackends() {
        return backends.stream().filter(b -> !b.isBrowser()).toList();
    }

    /** The chain of a requested backend. */
    public Chain chainOf(BackendId requested) {
        Chain c = chains.get(requested);
        return c != null ? c : Chain.of(requested);
    }
}
