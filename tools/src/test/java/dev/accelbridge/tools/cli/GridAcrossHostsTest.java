package dev.accelbridge.tools.cli;

import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.core.testing.Nightly;
import dev.accelbridge.run.RequiresHostPart;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.run.NetworkNamespace;
import dev.accelbridge.run.SeleniumGrid;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.reports.store.MatrixStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Selenium Grid on another host: a network namespace of its own, reachable only across a veth pair, the bridge bound
 * to this side's address. Its node's Chromium runs WebGPU (SwiftShader, labelled) and wasm with the threads it has here.
 */
@Nightly(guardedBy = "GridRunCliTest") // docs/testing.md#the-nightly-tier
@RequiresBrowser
@RequiresHostPart({RequiresHostPart.Part.NETWORK_NAMESPACE, RequiresHostPart.Part.GRID})
class GridAcrossHostsTest {
    @TempDir
    Path tmp;

    @Test
    void aGridNodeOnAnotherHostRunsWebGpuAndThreadedWasmAsThisHostDoes() throws Exception {
        Map<String, JsonNode> local = cases(CliRunner.run("run", "--backends", "wasm", "--suites", "vision", "--browser", "chromium",
                "--warmups", "0", "--iterations", "1", "--min-duration", "0", "--warmup-duration", "0", "--json",
                "--db", tmp.resolve("local.duckdb").toString(), "--out", tmp.resolve("out-local").toString()));
        try (NetworkNamespace ns = NetworkNamespace.create();
             SeleniumGrid grid = SeleniumGrid.standaloneIn(ns, tmp, "\"accelbridge:gpu\":\"software\"")) {
            CliRunner.Result r = CliRunner.run("run", "--grid", grid.url().toString(), "--bridge-host", ns.hostAddress(),
                    "--advertise", "http://" + ns.hostAddress() + ":0", "--backends", "wasm,webgpu,cpu", "--suites", "vision",
                    "--browser", "chromium", "--warmups", "0", "--iterations", "1", "--min-duration", "0", "--warmup-duration", "0",
                    "--json", "--db", tmp.resolve("m.duckdb").toString(), "--out", tmp.resolve("out").toString());
            assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
            Map<String, JsonNode> remote = cases(r);
            String node = "grid node " + ns.address() + ":4444";
            for (JsonNode n : remote.values()) {
                if (!n.get("requested").asText().equals("cpu")) {
                    assertThat(n.get("host").asText()).isEqualTo(node);
                    assertThat(n.get("driver").asText()).isEqualTo("grid");
                }
            }
            remote.forEach((k, n) -> {
                if (k.startsWith("webgpu ")) {
                    assertThat(n.get("status").asText()).as(n.toString()).isEqualTo("PASSED");
                    assertThat(n.get("softwareAdapter").asBoolean()).isTrue();
                    assertThat(n.get("adapter").asText()).containsIgnoringCase("swiftshader");
                }
                if (k.startsWith("wasm ")) {
                    assertThat(n.get("status").asText()).as(n.toString()).isEqualTo("PASSED");
                    assertThat(n.get("threads").asInt()).as("wasm threads on the node against here, " + k)
                            .isEqualTo(local.get(k).get("threads").asInt()).isGreaterThan(1);
                    assertThat(n.get("diagnostics").toString()).doesNotContain("not-isolated");
                }
            });
            // the node's adapter and WebNN contexts are the host's facts, kept in the store
            String fingerprint = remote.values().stream().filter(n -> n.get("host").asText().equals(node)).findFirst().orElseThrow()
                    .get("hostFingerprint").asText();
            try (MatrixStore store = MatrixStore.openReadOnly(tmp.resolve("m.duckdb"))) {
                HostInfo h = store.hosts().get(fingerprint);
                assertThat(h.gpus()).singleElement().asString().containsIgnoringCase("swiftshader");
                assertThat(h.facts()).containsEntry("webgpu.isFallbackAdapter", "true").containsEntry("secureContext", "true")
                        .containsEntry("crossOriginIsolated", "true").containsKey("grid.node").containsKey("webnn.cpu");
                assertThat(h.facts().get("grid.stereotype")).startsWith("{\"accelbridge:gpu\":\"software\"");
            }

            // routed by capability, as Grid users route GPU pools: no node offers hardware here, and the run says so
            CliRunner.Result hardware = remoteRun(grid, ns, "webgpu", "--grid-capability", "accelbridge:gpu=hardware");
            JsonNode unrouted = cases(hardware).values().iterator().next();
            assertThat(unrouted.get("status").asText()).isEqualTo("UNAVAILABLE");
            assertThat(unrouted.get("reason").asText()).contains("No node of the Selenium Grid", "accelbridge:gpu=hardware",
                    "{accelbridge:gpu=software}");
            assertThat(cases(remoteRun(grid, ns, "webgpu", "--grid-capability", "accelbridge:gpu=software")).values())
                    .allSatisfy(n -> assertThat(n.get("status").asText()).isEqualTo("PASSED"));

            // a page that still lands without a secure context (plain HTTP asked for) says why, with the fix
            Map<String, JsonNode> plain = cases(remoteRun(grid, ns, "webgpu,wasm", "--no-tls"));
            plain.forEach((k, n) -> {
                if (k.startsWith("webgpu ")) {
                    assertThat(n.get("status").asText()).isEqualTo("FELL_BACK");
                    assertThat(n.get("reason").asText()).contains("not a secure context", "serve the bridge over HTTPS");
                } else {
                    assertThat(n.get("threads").asInt()).isEqualTo(1);
                    assertThat(n.get("diagnostics").toString()).contains("not-isolated", "wasm ran on one thread");
                }
            });
        }
    }

    /** One vision case a backend through the Grid in {@code ns}, the bridge on this side of the pair. */
    private CliRunner.Result remoteRun(SeleniumGrid grid, NetworkNamespace ns, String backends, String... more) {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("run", "--grid", grid.url().toString(), "--bridge-host",
                ns.hostAddress(), "--backends", backends, "--model", model(), "--dim", "batch=1", "--browser", "chromium", "--warmups", "0",
                "--iterations", "1", "--min-duration", "0", "--warmup-duration", "0", "--json", "--db", tmp.resolve("r.duckdb").toString(),
                "--out", tmp.resolve("out-r").toString()));
        args.addAll(java.util.List.of(more));
        return CliRunner.run(args.toArray(String[]::new));
    }

    private String model() {
        try {
            Path dir = tmp.resolve("mlp");
            if (!java.nio.file.Files.isDirectory(dir)) {
                dev.accelbridge.nativerunner.TinyOnnx.write(dev.accelbridge.nativerunner.TinyOnnx.mlp(8, 16, 4, 2, 5L),
                        java.nio.file.Files.createDirectories(dir), "mlp");
            }
            return dir.resolve("mlp.onnx").toString();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The rows of a run's --json, by "requested model". */
    private static Map<String, JsonNode> cases(CliRunner.Result r) throws Exception {
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        Map<String, JsonNode> out = new HashMap<>();
        new ObjectMapper().readTree(r.out()).forEach(n -> out.put(n.get("requested").asText() + " " + n.get("model").asText(), n));
        return out;
    }
}
