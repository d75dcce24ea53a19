package dev.accelbridge.browser.launch;

import dev.accelbridge.core.BrowserKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Grids that are not one, as a hostile or broken peer answers (found when tried: a Grid that sent its headers and then one
 * body byte every 2 s held the run forever; one that never answered cost 182 s and a reason ending in "null"; a 50 MB
 * answer was buffered whole; random bytes and HTML were stored verbatim as the reason, with advice about the bridge's
 * address that did not apply). Each is refused within its stated bound, its answer quoted and bounded.
 */
class HostileGridTest {
    private final List<ServerSocket> servers = new ArrayList<>();

    @AfterEach
    void close() throws IOException {
        for (ServerSocket s : servers) {
            s.close();
        }
    }

    /** A peer on a free loopback port that answers every connection with {@code answer}. */
    private URI peer(Consumer<Socket> answer) throws IOException {
        ServerSocket ss = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        servers.add(ss);
        Thread t = new Thread(() -> {
            while (!ss.isClosed()) {
                try {
                    Socket s = ss.accept();
                    Thread c = new Thread(() -> answer.accept(s));
                    c.setDaemon(true);
                    c.start();
                } catch (IOException e) {
                    return;
                }
            }
        });
        t.setDaemon(true);
        t.start();
        return URI.create("http://127.0.0.1:" + ss.getLocalPort());
    }

    private static void write(Socket s, String head, byte[] body) {
        try (s) {
            s.getInputStream().read(new byte[8192]);
            OutputStream out = s.getOutputStream();
            out.write(head.getBytes(StandardCharsets.ISO_8859_1));
            out.write(body);
            out.flush();
        } catch (IOException e) {
            // the client hung up: what the test wants
        }
    }

    @Test
    void junkIsQuotedBoundedAndGetsAdviceAboutTheGridNotTheBridge() throws Exception {
        byte[] junk = ("<html><script>alert(1)</script>\u001B[2J" + "x".repeat(5000) + "</html>").getBytes(StandardCharsets.UTF_8);
        URI grid = peer(s -> write(s, "HTTP/1.1 200 OK\r\nContent-Length: " + junk.length + "\r\n\r\n", junk));
        BrowserLaunchException e = (BrowserLaunchException) org.assertj.core.api.Assertions.catchThrowable(() -> new SeleniumLauncher(DriverKind.GRID)
                .launch(LaunchOptions.builder().browser(BrowserKind.CHROMIUM).driver(DriverKind.GRID).gridUrl(grid)
                        .launchTimeout(Duration.ofSeconds(5)).build(), URI.create("http://127.0.0.1:1/")));
        assertThat(e).isNotNull();
        assertThat(e.getMessage()).contains("is not a Selenium Grid", "answered 200 with '<html><script>")
                .doesNotContain("\u001B", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                        "--bridge-host");
        assertThat(e.getMessage().length()).isLessThan(700);
    }

    @Test
    void aTrickleASilenceAndAFloodEachMeetTheirBound() throws Exception {
        URI trickle = peer(s -> {
            try (s) {
                s.getInputStream().read(new byte[8192]);
                OutputStream out = s.getOutputStream();
                out.write("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                for (int i = 0; i < 100; i++) {
                    out.write('{');
                    out.flush();
                    Thread.sleep(2000);
                }
            } catch (IOException | InterruptedException e) {
                // hung up on
            }
        });
        URI silent = peer(s -> {
            try {
                Thread.sleep(600_000);
            } catch (InterruptedException e) {
                // done
            }
        });
        byte[] fifty = new byte[50 << 20];
        URI flood = peer(s -> write(s, "HTTP/1.1 200 OK\r\nContent-Length: " + fifty.length + "\r\n\r\n", fifty));
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            // the trickle and the silence each wait out their 10 s bound: at once, as two peers of one run would be
            java.util.concurrent.CompletableFuture<Void> quiet = java.util.concurrent.CompletableFuture.runAsync(() ->
                    assertThatThrownBy(() -> GridNodes.requireGrid(silent)).hasMessageContaining("gave no whole answer within 10 s")
                            .hasMessageNotContaining("null"));
            assertThatThrownBy(() -> GridNodes.requireGrid(trickle)).hasMessageContaining("gave no whole answer within 10 s")
                    .hasMessageContaining("bounded at 10 s and 1 MiB");
            quiet.join();
            assertThatThrownBy(() -> GridNodes.requireGrid(flood)).hasMessageContaining("more than 1048576 bytes");
        });
        assertThatThrownBy(() -> GridNodes.requireGrid(URI.create("http://127.0.0.1:9/"))).hasMessageContaining("could not be reached");
    }
}
