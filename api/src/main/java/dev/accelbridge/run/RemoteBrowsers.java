package dev.accelbridge.run;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.Untrusted;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Browsers that run on other machines: the capabilities a Selenium Grid session asks for, matched against its nodes'
 * stereotypes as Grid users route to GPU pools ({@code --grid-capability accelbridge:gpu=hardware}), and a Playwright
 * browser server to run lanes on ({@code --connect ws://host:3000/}).
 *
 * @param gridCapabilities extension capabilities ({@code vendor:name}) and the value each node must offer
 * @param connect          a Playwright browser server's WebSocket endpoint
 * @param executable       the browser's path on the server's machine ({@code --connect-executable}); empty: the server's
 *                         own Playwright browser
 */
@PublicApi
public record RemoteBrowsers(Map<String, String> gridCapabilities, Optional<URI> connect, Optional<String> executable) {
    /** Nothing remote beyond {@code --grid}. */
    public static final RemoteBrowsers NONE = new RemoteBrowsers(Map.of(), Optional.empty(), Optional.empty());

    /** Grid capabilities and a server, its own browser. */
    public RemoteBrowsers(Map<String, String> gridCapabilities, Optional<URI> connect) {
        this(gridCapabilities, connect, Optional.empty());
    }

    public RemoteBrowsers {
        executable = executable == null ? Optional.empty() : executable.filter(e -> !e.isBlank());
        if (executable.isPresent() && connect.isEmpty()) {
            throw new AccelbridgeException("--connect-executable names a browser on a Playwright server, and no --connect is given",
                    "give --connect WS_URL, or drop --connect-executable");
        }
        gridCapabilities = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(gridCapabilities == null ? Map.of() : gridCapabilities));
        connect = connect == null ? Optional.empty() : connect;
        for (String k : gridCapabilities.keySet()) {
            if (!k.matches("[A-Za-z][A-Za-z0-9_.-]*:[A-Za-z0-9_.-]+")) {
                throw new AccelbridgeException("--grid-capability " + Untrusted.quote(k) + " is not an extension capability's name",
                        "give vendor:name=value, e.g. --grid-capability accelbridge:gpu=hardware");
            }
        }
        connect.ifPresent(c -> {
            if (!List.of("ws", "wss").contains(String.valueOf(c.getScheme())) || c.getHost() == null) {
                throw new AccelbridgeException("--connect " + Untrusted.quote(c.toString()) + " is not a WebSocket URL with a host",
                        "give the browser server's endpoint, e.g. --connect ws://10.0.0.7:3000/");
            }
        });
    }

    /**
     * Reads {@code --grid-capability} values ({@code KEY=VALUE}).
     *
     * @throws AccelbridgeException naming a value without {@code =}
     */
    public static Map<String, String> capabilities(List<String> pairs) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String p : pairs == null ? List.<String>of() : pairs) {
            int eq = p.indexOf('=');
            if (eq <= 0) {
                throw new AccelbridgeException("--grid-capability " + Untrusted.quote(p) + " is not KEY=VALUE",
                        "e.g. --grid-capability accelbridge:gpu=hardware");
            }
            out.put(p.substring(0, eq).trim(), p.substring(eq + 1).trim());
        }
        return out;
    }
}
