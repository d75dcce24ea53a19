package dev.accelbridge.browser.provider;

import dev.accelbridge.bridge.BridgeServerException;
import dev.accelbridge.bridge.protocol.PageProbe;
import dev.accelbridge.core.Untrusted;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The search for the GPU's WebGPU adapter, never a software one: each flag set in turn is launched until the page's
 * adapter is not a software adapter. A set whose page never joins (found when tried: a GL set whose GPU process cannot
 * start) is that set's evidence, not the search's end. When none gives one, the last joined launch is kept with WebGPU
 * refused, its evidence what each set gave. Apart from launching, so that the decision is tested on adapters a host
 * here cannot have. Used by a run's lanes ({@code PageLaunch}) and by the observer's browser ({@code ObserverBrowser}) alike.
 *
 * @param <L> a launch
 */
public final class HardwareAdapterSearch<L> {
    private final Function<List<String>, L> launch;
    private final Function<L, PageProbe.WebGpu> webGpu;
    private final Consumer<L> close;

    /**
     * @param launch a launch with a flag set added (throws {@link BridgeServerException} when its page does not join)
     * @param webGpu what a launch's page said of WebGPU
     * @param close  closes a launch the search does not keep
     */
    public HardwareAdapterSearch(Function<List<String>, L> launch, Function<L, PageProbe.WebGpu> webGpu, Consumer<L> close) {
        this.launch = launch;
        this.webGpu = webGpu;
        this.close = close;
    }

    /**
     * What the search ended with.
     *
     * @param kept    the launch the lane goes on with: the hardware adapter's, else the last that joined (empty: none joined)
     * @param refused what each set gave, when none gave a hardware adapter
     */
    public record Found<L>(Optional<L> kept, Optional<String> refused) {
    }

    /** Tries {@code sets} in turn. */
    public Found<L> over(List<List<String>> sets) {
        List<String> tried = new ArrayList<>();
        L kept = null;
        for (List<String> set : sets) {
            L l;
            try {
                l = launch.apply(set);
            } catch (BridgeServerException e) {
                tried.add(String.join(" ", set) + " gave no page (" + Untrusted.quote(e.getMessage()) + ")");
                continue;
            }
            PageProbe.WebGpu g = webGpu.apply(l);
            if (kept != null) {
                close.accept(kept);
            }
            if (g.adapterFound() && !g.software()) {
                return new Found<>(Optional.of(l), Optional.empty());
            }
            tried.add(String.join(" ", set) + " gave " + (g.adapterFound() ? g.label() : Untrusted.quote(g.evidence())));
            kept = l;
        }
        return new Found<>(Optional.ofNullable(kept), Optional.of(String.join("; ", tried)));
    }
}
