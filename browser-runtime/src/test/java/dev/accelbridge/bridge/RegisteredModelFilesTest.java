package dev.accelbridge.bridge;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** A model file the bridge serves is checked at every request: swapped for a link after it was registered, it is not served. */
class RegisteredModelFilesTest {
    @TempDir
    Path tmp;

    @Test
    void aRegisteredModelFileSwappedForALinkIsNotServed() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("m"));
        Path f = Files.writeString(dir.resolve("model.onnx"), "weights");
        try (BridgeServer server = BridgeServer.start(BridgeOptions.defaults())) {
            ModelRegistry.ModelRef ref = server.models().register(f);
            HttpClient http = HttpClient.newHttpClient();
            URI u = URI.create(server.baseUrl() + ref.urlPath());
            assertThat(http.send(HttpRequest.newBuilder(u).build(), HttpResponse.BodyHandlers.ofString()).body()).isEqualTo("weights");
            Files.delete(f);
            Files.createSymbolicLink(f, Path.of("/etc/passwd"));
            HttpResponse<String> after = http.send(HttpRequest.newBuilder(u).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(after.statusCode()).isEqualTo(404);
            assertThat(after.body()).doesNotContain("root:");
        }
    }
}
