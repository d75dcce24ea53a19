package dev.accelbridge.browser.launch;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.BrowserKind;

import java.util.Optional;
import java.util.OptionalLong;
import dev.accelbridge.core.HostInfo;

/** A running browser that was pointed at the bridge page. Closing it ends the browser and removes its profile. */
@PublicApi
public interface BrowserHandle extends AutoCloseable {
    /** Which browser. */
    BrowserKind browser();

    /** How it was started. */
    DriverKind driver();

    /** The browser build, e.g. {@code 156.0.8078.73}. */
    String version();

    /** The executable that runs (or the Grid URL for a remote browser). */
    String executable();

    /** True while the browser process (or remote session) is alive. */
    boolean isAlive();

    /** The browser's main process id, when this machine owns it. */
    OptionalLong pid();

    /** Resident memory of the browser's whole process tree, when this machine owns the process. */
    default OptionalLong rssBytes() {
        return treeMemory().map(t -> OptionalLong.of(t.totalBytes())).orElse(OptionalLong.empty());
    }

    /** Resident memory of the browser's process tree, in all and by process type, when this machine owns the process. */
    default java.util.Optional<TreeMemory> treeMemory() {
        return pid().isPresent() ? new ProcessTreeMemory(pid().getAsLong()).sampleByType() : java.util.Optional.empty();
    }

    /**
     * The machine the browser runs on when it is not this one (a Selenium Grid node): results are that host's. Empty for a
     * browser on this machine.
     */
    default Optional<HostInfo> remoteHost() {
        return Optional.empty();
    }

    /**
     * What the browser's page has said since it was launched, as evidence when it did not reach the bridge: its address and
     * its failed requests, errors, crash. Empty where the driver does not watch the page.
     */
    default Optional<String> pageEvidence() {
        return Optional.empty();
    }

    /** Kills the browser hard (used after a hang; tests use it to crash a browser mid-run). */
    void kill();

    /** Ends the browser gracefully, then hard after a short grace period; deletes the fresh profile. */
    @Override
    void close();
}
