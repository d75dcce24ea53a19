package dev.accelbridge.browser.provider;

import dev.accelbridge.bridge.BridgeServerException;
import dev.accelbridge.bridge.protocol.PageProbe;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The search for the GPU's WebGPU adapter across flag sets, on adapters this host cannot have (an NVIDIA GPU): the code
 * that decides, with each launch a name and each page's WebGPU constructed. The real shell's refusal of SwiftShader over
 * every set is OtherBrowsersTest's (nightly).
 */
class HardwareAdapterSearchTest {
    private static PageProbe.WebGpu adapter(String vendor, String architecture) {
        return new PageProbe.WebGpu(true, true, vendor, architecture, "", "", false, List.of(), Map.of(), "");
    }

    private static final PageProbe.WebGpu SWIFTSHADER = adapter("google", "swiftshader");
    private static final PageProbe.WebGpu NVIDIA = adapter("nvidia", "hopper");
    private static final PageProbe.WebGpu NONE = new PageProbe.WebGpu(true, false, "", "", "", "", null, List.of(), Map.of(),
            "navigator.gpu present, requestAdapter() returned null");

    private final List<String> closed = new ArrayList<>();

    private HardwareAdapterSearch<String> search(Map<String, PageProbe.WebGpu> bySet) {
        return new HardwareAdapterSearch<>(set -> {
            String name = set.get(0);
            if (!bySet.containsKey(name)) {
                throw new BridgeServerException("no page joined within 60 s", "see the browser's log");
            }
            return name;
        }, bySet::get, closed::add);
    }

    @Test
    void theFirstSetThatGivesAHardwareAdapterIsKeptAndTheSoftwareOnesBeforeItClosed() {
        var found = search(Map.of("--a", SWIFTSHADER, "--b", NVIDIA, "--c", SWIFTSHADER)).over(List.of(List.of("--a"), List.of("--b"), List.of("--c")));
        assertThat(found.kept()).hasValue("--b");
        assertThat(found.refused()).isEmpty();
        assertThat(closed).containsExactly("--a");
    }

    @Test
    void softwareEverywhereIsRefusedNamingWhatEachSetGaveAndTheLastJoinedIsKept() {
        var found = search(Map.of("--a", SWIFTSHADER, "--b", NONE)).over(List.of(List.of("--a"), List.of("--b"), List.of("--egl")));
        assertThat(found.kept()).hasValue("--b");
        assertThat(closed).containsExactly("--a");
        assertThat(found.refused()).hasValue("--a gave google swiftshader (software adapter); "
                + "--b gave 'navigator.gpu present, requestAdapter() returned null'; --egl gave no page ('no page joined within 60 s')");
    }

    @Test
    void noSetThatJoinsKeepsNothingAndSaysSo() {
        var found = search(Map.of()).over(List.of(List.of("--egl")));
        assertThat(found.kept()).isEmpty();
        assertThat(found.refused()).hasValueSatisfying(r -> assertThat(r).startsWith("--egl gave no page"));
    }
}
