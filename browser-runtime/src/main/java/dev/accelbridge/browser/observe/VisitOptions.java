package dev.accelbridge.browser.observe;

import dev.accelbridge.browser.launch.WebGpuAdapter;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.PublicApi;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What a visit of a user's app does ({@link AppObserver}): the page to open, the steps, when the app is done, the browser
 * and adapter it runs in and the bytes it may keep. The API's {@code ObserveOptions} checks them and adds what is done
 * with the sessions afterwards (their replays).
 *
 * @param url     the app's page
 * @param steps   what to do once it has loaded, in order
 * @param until   a selector whose element says the app has finished (empty: the idle time alone says it)
 * @param idle    how long no session may be made or run before the app is taken as done
 * @param timeout the most the whole visit may take
 * @param browser the browser
 * @param adapter the WebGPU adapter its pages get, searched as for a run's lanes
 * @param keep    the most bytes kept on disk from one visit
 */
@PublicApi
public record VisitOptions(URI url, List<AppStep> steps, Optional<String> until, Duration idle, Duration timeout, BrowserKind browser,
                           WebGpuAdapter adapter, long keep) {
    public VisitOptions {
        steps = List.copyOf(steps);
        until = until == null ? Optional.empty() : until;
    }
}
