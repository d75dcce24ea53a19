package dev.accelbridge.browser.observe;

import dev.accelbridge.bridge.protocol.PageProbe;
import dev.accelbridge.core.PublicApi;

import java.util.List;
import java.util.Map;

/**
 * A WebGPU adapter an observed realm got, as it named itself ({@code GPUAdapter.info}), each name cut to 100 characters:
 * the adapter a session on WebGPU ran on ({@link Observed.Session#adapter}).
 *
 * @param vendor       its vendor, or empty
 * @param architecture its architecture, or empty
 * @param device       its device, or empty
 * @param description  its description, or empty
 * @param fallback     whether it said it is a fallback adapter, null where it did not say
 */
@PublicApi
public record ObservedAdapter(String vendor, String architecture, String device, String description, Boolean fallback) {
    /** Empty names for none. */
    public ObservedAdapter {
        vendor = vendor == null ? "" : vendor;
        architecture = architecture == null ? "" : architecture;
        device = device == null ? "" : device;
        description = description == null ? "" : description;
    }

    /** As a page's probe says an adapter, so one rule names it and tells a software one ({@link PageProbe.WebGpu}). */
    public PageProbe.WebGpu probe() {
        return new PageProbe.WebGpu(true, true, vendor, architecture, device, description, fallback, List.of(), Map.of(),
                "the adapter the app's realm got");
    }
}
