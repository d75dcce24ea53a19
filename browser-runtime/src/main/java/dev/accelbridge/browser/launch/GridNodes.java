package dev.accelbridge.browser.launch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.HostInfo;
import org.openqa.selenium.Capabilities;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
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
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private GridNodes() {
    }

    /** The host of {@code sessionId}, never null. */
    static HostInfo hostOf(URI grid, String sessionId, Capabilities caps) {
        String platform = caps.getPlatformName() == null ? null : caps.getPlatformName().toString().toLowerCase(Locale.ROOT);
        String nodeUri = null;
        String os = platform;
        String arch = null;
        try {
            JsonNode data = query(grid, "{ session (id: \"" + sessionId.replaceAll("[^A-Za-z0-9-]", "")
                    + "\") { nodeId, nodeUri } nodesInfo { nodes { id, uri, osInfo { name, version, arch } } } }");
            JsonNode session = data.path("session");
            nodeUri = session.path("nodeUri").asText(null);
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
        String name = nodeUri != null ? "grid node " + URI.create(nodeUri).getAuthority() : "Grid " + grid.getAuthority();
        String fingerprint = "grid-" + HostInfo.fingerprintOf(java.util.Arrays.asList(name, os, arch));
        return new HostInfo(name, fingerprint, os, arch, null, 0, 0, List.of(), 0, List.of(), null);
    }

    private static JsonNode query(URI grid, String graphQl) {
        try {
            ObjectNode body = JSON.createObjectNode().put("query", graphQl);
            HttpRequest req = HttpRequest.newBuilder(grid.resolve("/graphql")).timeout(Duration.ofSeconds(10))
                    .header("Content-Type", "application/json; charset=utf-8")
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8)).build();
            HttpResponse<String> r = HTTP.send(req, HttpResponse.BodyHandlers.ofString());
            JsonNode d = JSON.readTree(r.body()).path("data");
            if (r.statusCode() != 200 || d.isMissingNode() || d.isNull()) {
                throw new IllegalStateException("Grid GraphQL answered " + r.statusCode());
            }
            return d;
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
