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
        // the bridge lives in a thread group of its own, so the threads it starts are told apart from any another part of
        // this JVM starts meanwhile (found when tried: one run in three failed on an unnamed thread of something else)
        ThreadGroup group = new ThreadGroup("bridge-under-test");
        java.util.concurrent.atomic.AtomicReference<Throwable> failed = new java.util.concurrent.atomic.AtomicReference<>();
        Thread owner = new Thread(group, () -> {
            try (BridgeServer server = BridgeServer.start(BridgeOptions.defaults());
                 WsClient page = new WsClient(URI.create("ws://127.0.0.1:" + server.port() + "/ws"), null)) {
                assertThat(page.hello().path("type").asText()).isEqualTo("welcome");
            } catch (Throwable t) {
                failed.set(t);
            }
        }, "bridge-owner");
        owner.start();
        owner.join();
        if (failed.get() != null) {
            throw new AssertionError("the bridge did not run", failed.get());
        }
        List<String> left = List.of();
        String seen = "";
        // found when tried: one run in six failed on an unnamed thread, Javalin's 5 s watcher for an app never started
        for (int i = 0; i < 20; i++) { // Jetty's pool threads end shortly after stop(), not at once
            left = nonDaemon(group).stream().map(Thread::getName).sorted().toList();
            if (left.isEmpty()) {
                break;
            }
            seen = where(group);
            Thread.sleep(100);
        }
        assertThat(left).as("non-daemon threads the bridge started, alive after it closed: %s", seen).isEmpty();
    }

    /** Each thread left, with the top of its stack: what it is, where its name says nothing. */
    private static String where(ThreadGroup group) {
        return nonDaemon(group).stream().map(t -> t.getName() + " at " + java.util.Arrays.stream(t.getStackTrace()).limit(8)
                .map(StackTraceElement::toString).collect(Collectors.joining(" < "))).collect(Collectors.joining("; "));
    }

    private static Set<Thread> nonDaemon(ThreadGroup group) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.isAlive() && !t.isDaemon()).filter(t -> {
            ThreadGroup g = t.getThreadGroup();
            return g != null && (g == group || group.parentOf(g));
        }).collect(Collectors.toSet());
    }
}
