package dev.accelbridge.bridge;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A program that embeds the bridge ends when its main method does: once the bridge is closed, no thread it started keeps
 * the JVM alive. Found when tried: a bench's JVM never exited after its lane was done, held by the WebSocket keep-alive
 * pings' non-daemon thread (Javalin's, shared by every connection and never stopped).
 */
class BridgeExitTest {
    @Test
    void aClosedBridgeLeavesNoThreadThatKeepsTheJvmAlive() throws Exception {
        Set<Thread> before = nonDaemon();
        try (BridgeServer server = BridgeServer.start(BridgeOptions.defaults());
             WsClient page = new WsClient(URI.create("ws://127.0.0.1:" + server.port() + "/ws"), null)) {
            assertThat(page.hello().path("type").asText()).isEqualTo("welcome");
        }
        List<String> left = List.of();
        for (int i = 0; i < 50; i++) { // Jetty's pool threads end shortly after stop(), not at once
            left = nonDaemon().stream().filter(t -> !before.contains(t)).map(Thread::getName).sorted().toList();
            if (left.isEmpty()) {
                break;
            }
            Thread.sleep(100);
        }
        assertThat(left).as("non-daemon threads alive after the bridge closed").isEmpty();
    }

    private static Set<Thread> nonDaemon() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.isAlive() && !t.isDaemon()).collect(Collectors.toSet());
    }
}
