package dev.accelbridge.browser.launch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.BackendUnavailableException;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.Untrusted;
import org.openqa.selenium.Capabilities;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * Which Grid node a session landed on, as the lane's host: the Grid's own GraphQL endpoint says the node of a session
 * ({@code session(id) { nodeId nodeUri }}) and the node's OS ({@code nodesInfo { nodes { osInfo } } }); the session's
 * capabilities say its platform. A Grid without GraphQL (or behind a proxy that hides it) still gives the platform, and
 * the host then says "Grid GRID_URL" rather than a node it does not know.
 */
final class GridNodes {
    private static final ObjectMapper JSON = new ObjectMapper();

    private GridNodes() {
    }

    /** The host of {@code sessionId}, never null: the node's name, OS, id and the stereotype of the slot it took. */
    static HostInfo hostOf(URI grid, String sessionId, Capabilities caps) {
        String platform = caps.getPlatformName() == null ? null : caps.getPlatformName().toString().toLowerCase(Locale.ROOT);
        String nodeUri = null;
        String os = platform;
        String arch = null;
        java.util.Map<String, String> facts = new java.util.LinkedHashMap<>();
        try {
            JsonNode data = query(grid, "{ session (id: \"" + sessionId.replaceAll("[^A-Za-z0-9-]", "")
                    + "\") { nodeId, nodeUri, slot { stereotype } } nodesInfo { nodes { id, uri, osInfo { name, version, arch } } } }");
            JsonNode session = data.path("session");
            nodeUri = session.path("nodeUri").asText(null);
            facts.put("grid.node", Untrusted.bounded(session.path("nodeId").asText(""), 100));
            facts.put("grid.stereotype", Untrusted.bounded(compact(session.path("slot").path("stereotype").asText("")), 2000));
            for (JsonNode n : data.path("nodesInfo").path("nodes")) {
                if (n.path("id").asText("").equals(session.path("nodeId").asText())) {
                    JsonNode o = n.path("osInfo");
                    os = (o.path("name").asText("") + " " + o.path("version").asText("")).trim();
                    arch = o.path("arch").asText(null);
                }
            }
        } catch (RuntimeException e) {
            // no GraphQL: the platform from the capabilities is what is known
        }
        String name = nodeUri != null ? "grid node " + Untrusted.bounded(URI.create(nodeUri).getAuthority(), 200) : "Grid " + grid.getAuthority();
        String fingerprint = "grid-" + HostInfo.fingerprintOf(java.util.Arrays.asList(name, os, arch));
        return new HostInfo(name, fingerprint, os == null ? null : Untrusted.bounded(os, 200), arch == null ? null
                : Untrusted.bounded(arch, 50), null, 0, 0, List.of(), 0, List.of(), null, facts);
    }

    /**
     * Checks, before a session is asked for, that some node of the Grid that is up offers {@code browserName} with every
     * capability in {@code wanted} in its stereotype: the Grid's own matcher passes over a stereotype that does not name
     * an extension capability at all, so a session asking for {@code accelbridge:gpu=hardware} would land on any node.
     *
     * @throws dev.accelbridge.core.BackendUnavailableException naming what the Grid's nodes offer when none matches
     * @throws BrowserLaunchException when the Grid cannot say
     */
    static void requireOffered(URI grid, String browserName, java.util.Map<String, String> wanted) {
        if (wanted.isEmpty()) {
            return;
        }
        JsonNode nodes;
        try {
            nodes = query(grid, "{ nodesInfo { nodes { uri, status, stereotypes } } }").path("nodesInfo").path("nodes");
        } catch (RuntimeException e) {
            throw new BrowserLaunchException("The Selenium Grid at " + grid + " cannot say which capabilities its nodes offer ("
                    + Untrusted.bounded(e.getMessage(), 200) + "), so a session asking for " + wanted + " cannot be routed",
                    "use a Grid 4 with its GraphQL endpoint (/graphql), or drop --grid-capability", e);
        }
        List<String> offered = new java.util.ArrayList<>();
        for (JsonNode n : nodes) {
            JsonNode stereotypes;
            try {
                stereotypes = JSON.readTree(n.path("stereotypes").asText("[]"));
            } catch (java.io.IOException e) {
                continue;
            }
            for (JsonNode slot : stereotypes) {
                JsonNode st = slot.has("stereotype") ? slot.path("stereotype") : slot;
                if (!st.path("browserName").asText(browserName).equalsIgnoreCase(browserName)) {
                    continue;
                }
                if ("UP".equals(n.path("status").asText()) && matches(st, wanted)) {
                    return;
                }
                offered.add(Untrusted.bounded(URI.create(n.path("uri").asText("?")).getAuthority() + " " + n.path("status").asText()
                        + " " + extensions(st), 300));
            }
        }
        throw new BackendUnavailableException("No node of the Selenium Grid at " + grid + " that is up offers " + browserName + " with "
                + wanted + " (its " + browserName + " nodes: " + (offered.isEmpty() ? "none" : String.join("; ", offered)) + ")",
                "give a node that capability in its stereotype (node config: stereotype = '{\"browserName\": \"" + browserName
                        + "\", " + wanted.entrySet().stream().map(e -> "\"" + e.getKey() + "\": \"" + e.getValue() + "\"")
                        .collect(java.util.stream.Collectors.joining(", ")) + "}'), or drop --grid-capability");
    }

    /** Why the slot session {@code sessionId} took does not offer {@code wanted}, or empty when it does. */
    static java.util.Optional<String> landedElsewhere(URI grid, String sessionId, java.util.Map<String, String> wanted) {
        if (wanted.isEmpty()) {
            return java.util.Optional.empty();
        }
        try {
            String st = query(grid, "{ session (id: \"" + sessionId.replaceAll("[^A-Za-z0-9-]", "") + "\") { slot { stereotype } } }")
                    .path("session").path("slot").path("stereotype").asText("{}");
            JsonNode s = JSON.readTree(st);
            return matches(s, wanted) ? java.util.Optional.empty() : java.util.Optional.of("the Grid gave a slot whose stereotype "
                    + Untrusted.bounded(extensions(s), 300) + " does not offer " + wanted);
        } catch (java.io.IOException | RuntimeException e) {
            return java.util.Optional.of("the Grid cannot say which slot the session took (" + Untrusted.bounded(e.getMessage(), 200) + ")");
        }
    }

    /** A stereotype's JSON on one line, as the Grid's text when it is not JSON. */
    private static String compact(String json) {
        try {
            return JSON.readTree(json).toString();
        } catch (java.io.IOException e) {
            return json;
        }
    }

    private static boolean matches(JsonNode stereotype, java.util.Map<String, String> wanted) {
        return wanted.entrySet().stream().allMatch(e -> stereotype.has(e.getKey())
                && stereotype.path(e.getKey()).asText().equalsIgnoreCase(e.getValue()));
    }

    /** A stereotype's extension capabilities but the drivers' and the Grid's own: what routing can ask for. */
    private static String extensions(JsonNode stereotype) {
        java.util.Map<String, String> out = new java.util.TreeMap<>();
        stereotype.fields().forEachRemaining(e -> {
            String k = e.getKey().toLowerCase(Locale.ROOT);
            boolean drivers = List.of("goog:", "moz:", "ms:", "safari:", "se:").stream().anyMatch(k::startsWith); // the Grid matches none
            if (k.contains(":") && !drivers && !k.contains("options") && e.getValue().isValueNode()) {
                out.put(e.getKey(), e.getValue().asText());
            }
        });
        return out.toString();
    }

    private static JsonNode query(URI grid, String graphQl) {
        ObjectNode body = JSON.createObjectNode().put("query", graphQl);
        HttpRequest req = HttpRequest.newBuilder(grid.resolve("/graphql")).header("Content-Type", "application/json; charset=utf-8")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8)).build();
        try {
            PeerRead.Answer r = PeerRead.send(req);
            JsonNode d = JSON.readTree(r.body()).path("data");
            if (r.status() != 200 || d.isMissingNode() || d.isNull()) {
                throw new IllegalStateException("Grid GraphQL answered " + r.status());
            }
            return d;
        } catch (PeerRead.PeerException | java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Refuses a Grid that is not one before a session is asked of it: {@code /status} must answer, within
     * {@link PeerRead#DEADLINE} and {@link PeerRead#MAX_BYTES}, with a Grid's status ({@code {"value": {"ready": ...}}}).
     * Anything else (no answer, a trickle, a flood, a web page) is said as such, the answer quoted, never kept whole.
     */
    static void requireGrid(URI grid) {
        String fix = "check that --grid names a Selenium Grid 4 hub (its /status answers with {\"value\": {\"ready\": true}})";
        PeerRead.Answer a;
        try {
            a = PeerRead.send(HttpRequest.newBuilder(grid.resolve("/status")).GET().build());
        } catch (PeerRead.PeerException e) {
            throw new BrowserLaunchException("The Selenium Grid at " + grid + " " + e.getMessage() + " (GET /status, bounded at "
                    + PeerRead.DEADLINE.toSeconds() + " s and " + (PeerRead.MAX_BYTES >> 20) + " MiB)", fix, e);
        } catch (IllegalArgumentException e) {
            throw new BrowserLaunchException("The Grid URL '" + grid + "' is not a URL", "pass --grid http://host:4444", e);
        }
        JsonNode ready;
        try {
            ready = JSON.readTree(a.body()).path("value").path("ready");
        } catch (java.io.IOException e) {
            ready = com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        }
        if (a.status() != 200 || !ready.isBoolean()) {
            throw new BrowserLaunchException("The server at " + grid + " is not a Selenium Grid: GET /status answered " + a.status()
                    + " with " + a.quoted(), fix, null);
        }
    }
}
