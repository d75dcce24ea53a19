package dev.accelbridge.tools.cli;

import dev.accelbridge.run.Exposure;
import dev.accelbridge.run.RemoteBrowsers;
import dev.accelbridge.run.Targets;
import picocli.CommandLine.Option;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Browsers on other machines and how they reach the bridge: a Selenium Grid and the capabilities its session asks for, a
 * Playwright browser server, the address the bridge binds and advertises, and its TLS. One group of options, mapped onto
 * the plan's builder.
 */
final class RemoteArgs {
    @Option(names = "--grid", paramLabel = "URL", description = "Run browsers on a Selenium Grid (RemoteWebDriver).")
    URI grid;

    @Option(names = "--grid-capability", paramLabel = "KEY=VALUE",
            description = "A capability the Grid's session asks for and its node's stereotype must offer, as Grid users route to GPU "
                    + "pools (repeatable), e.g. accelbridge:gpu=hardware. No node offering it is an error that names what the nodes offer.")
    List<String> gridCapabilities;

    @Option(names = "--connect", paramLabel = "WS_URL",
            description = "Run browser lanes on a Playwright browser server (the same Playwright version, started with --unsafe so it "
                    + "takes Accelbridge's browser flags), e.g. ws://10.0.0.7:3000/.")
    URI connect;

    @Option(names = "--connect-executable", paramLabel = "PATH",
            description = "With --connect: the browser's path on the server's machine (default: the server's own Playwright browser).")
    String connectExecutable;

    @Option(names = "--bridge-host", paramLabel = "ADDR",
            description = "Address the bridge binds for the browsers it launches (default 127.0.0.1; the advertised host with --advertise). "
                    + "Off the default, every request needs a token made for the run, and the bridge serves HTTPS.")
    String bridgeHost;

    @Option(names = "--advertise", paramLabel = "URL",
            description = "URL launched browsers reach the bridge at, e.g. https://10.0.0.5:8765 for a Grid node on another machine "
                    + "(the bridge binds that host unless --bridge-host says otherwise; http is served as https unless --no-tls).")
    URI advertise;

    @Option(names = "--no-tls", description = "Serve an exposed bridge over plain HTTP (behind a proxy that terminates TLS): a page "
            + "off loopback is then not a secure context, where WebGPU and WebNN are hidden and wasm runs one thread.")
    boolean noTls;

    @Option(names = "--tls-keystore", paramLabel = "PATH", description = "Serve an exposed bridge with this PKCS#12 or JKS keystore "
            + "(one key and its certificate) instead of a certificate made at start.")
    Path tlsKeystore;

    @Option(names = "--tls-keystore-password-file", paramLabel = "PATH",
            description = "The keystore's password, on the first line of this file (else ACCELBRIDGE_TLS_PASSWORD).")
    Path tlsPasswordFile;

    /** True when browsers run elsewhere (a Grid, a Playwright server). */
    boolean remote() {
        return grid != null || connect != null;
    }

    /** Maps the options onto the plan's builder. */
    Targets.Builder apply(Targets.Builder b) {
        return b.optGrid(grid)
                .optExposure(Exposure.of(bridgeHost, advertise).withTls(new Exposure.Tls(noTls, Optional.ofNullable(tlsKeystore),
                        Optional.ofNullable(tlsPasswordFile))))
                .optRemote(new RemoteBrowsers(RemoteBrowsers.capabilities(gridCapabilities), Optional.ofNullable(connect),
                        Optional.ofNullable(connectExecutable)));
    }
}
