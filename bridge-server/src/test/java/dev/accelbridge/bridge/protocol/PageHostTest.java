package dev.accelbridge.bridge.protocol;

import dev.accelbridge.core.HostInfo;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A joining device's and a Grid node's facts keep the names docs/many-machines.md gives and users' filters read (found
 * when tried: a refactor wrote {@code p.webgpu().vendor}, {@code p.webnn().cpu} and {@code p.crossOriginIsolated()}, and no
 * test held them); facts stored under those names are read under the right ones.
 */
class PageHostTest {
    private static final String PROBE = "{'userAgent':'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
            + "HeadlessChrome/156.0.0.0 Safari/537.36','hardwareConcurrency':2,'crossOriginIsolated':true,'secureContext':true,"
            + "'wasm':{'present':true,'simd':true,'threads':true,'sharedArrayBuffer':true},"
            + "'webgpu':{'present':true,'adapterFound':true,'vendor':'google','architecture':'swiftshader','device':'','description':'',"
            + "'isFallbackAdapter':true,'features':[],'limits':{}},"
            + "'webnn':{'present':true,'evidence':'navigator.ml present','contexts':[{'options':{'deviceType':'cpu'},'ok':true}]}}";

    @Test
    void aDevicesAndAGridNodesFactsKeepTheirNames() throws Exception {
        PageProbe p = PageProbeTest.parse(PROBE);
        Map<String, String> expected = Map.of("webgpu.vendor", "google", "webgpu.architecture", "swiftshader",
                "webgpu.isFallbackAdapter", "true", "webnn.cpu", "ok", "secureContext", "true", "crossOriginIsolated", "true");
        assertThat(PageHost.device(p, "/10.0.0.2:5000").facts()).containsExactlyInAnyOrderEntriesOf(expected);
        HostInfo node = new HostInfo("node-1", "remote-abc", "Linux", "x86_64", null, 0, 2, List.of(), 0, List.of(), null,
                Map.of("grid.node", "n1"));
        assertThat(PageHost.onHost(p, node).facts()).containsAllEntriesOf(expected).containsEntry("grid.node", "n1");
    }

    @Test
    void factsStoredUnderTheMisnamedKeysAreReadUnderTheRightOnes() {
        HostInfo stored = new HostInfo("node-1", "remote-abc", "Linux", "x86_64", null, 0, 2, List.of(), 0, List.of(), null,
                Map.of("p.webgpu().vendor", "nvidia", "p.webnn().gpu", "ok", "p.crossOriginIsolated()", "false", "grid.node", "n1"));
        assertThat(stored.facts()).containsOnlyKeys("webgpu.vendor", "webnn.gpu", "crossOriginIsolated", "grid.node")
                .containsEntry("webgpu.vendor", "nvidia");
    }
}
