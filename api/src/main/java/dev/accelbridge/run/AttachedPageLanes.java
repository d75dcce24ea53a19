package dev.accelbridge.run;

import dev.accelbridge.bridge.BridgeServer;
import dev.accelbridge.bridge.hub.ConnectedPage;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.provider.BrowserBackendProvider;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.PublicApi;

import java.util.Collection;
import java.util.Map;

/**
 * The lane of a page a person opened by hand ({@code accelbridge serve}): nothing is launched; the page's
 * own probe decides availability and its user agent names the browser.
 */
@PublicApi
public final class AttachedPageLanes implements BrowserLanes {
    private final BridgeServer server;
    private final ConnectedPage page;
    private final Map<String, String> runtimeVersions;
    private BrowserBackendProvider provider;

    /** A lane over {@code page}, which has joined {@code server}. */
    public AttachedPageLanes(BridgeServer server, ConnectedPage page, Map<String, String> runtimeVersions) {
        this.server = server;
        this.page = page;
        this.runtimeVersions = Map.copyOf(runtimeVersions);
    }

    @Override
    public Lane open(LaneId ignored, Collection<BackendId> backends) {
        provider = BrowserBackendProvider.attach(server, page);
        return BridgeBrowserLanes.laneOf(provider, backends, runtimeVersions);
    }

    /** The page's own lane: its browser and version from its user agent, the onnxruntime-web it loaded. */
    @Override
    public LaneId expected(LaneId ignored) {
        return BrowserBackendProvider.attach(server, page).laneId();
    }

    /** A page opened by hand: nothing drives its browser. */
    @Override
    public String driver(LaneId target) {
        return DriverKind.MANUAL.id();
    }

    /** One page, one lane: its jobs run one at a time. */
    @Override
    public int maxLanes() {
        return 1;
    }

    @Override
    public void close() {
        // The page belongs to the person who opened it: leave it open for the next run.
    }
}
