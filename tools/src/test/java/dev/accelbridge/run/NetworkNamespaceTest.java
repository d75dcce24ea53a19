package dev.accelbridge.run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The other host's network is settled once it is made. Found when tried: a browser started on a Playwright server in a
 * fresh namespace lost its page's module requests to {@code net::ERR_NETWORK_CHANGED}, the kernel giving the pair an
 * IPv6 link-local address a second or more after it came up, which Chromium takes for a change of network.
 */
@RequiresHostPart(RequiresHostPart.Part.NETWORK_NAMESPACE)
class NetworkNamespaceTest {
    @TempDir
    Path tmp;

    @Test
    void noAddressComesOrGoesInsideAfterTheNamespaceIsMade() throws Exception {
        Path log = tmp.resolve("monitor.log");
        try (NetworkNamespace ns = NetworkNamespace.create()) {
            Process monitor = ns.start(List.of("ip", "-o", "monitor", "address"), ProcessBuilder.Redirect.to(log.toFile()));
            // past the kernel's duplicate-address detection (one probe a second) and its start delay
            Thread.sleep(3_000);
            assertThat(monitor.isAlive()).as("ip monitor runs: " + Files.readString(log)).isTrue();
        }
        assertThat(Files.readString(log)).as("address events inside after it was made").isBlank();
    }
}
