package dev.accelbridge.bridge.hub;

import dev.accelbridge.core.PublicApi;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.bridge.protocol.FromPage;
import dev.accelbridge.bridge.protocol.MessageKind;
import dev.accelbridge.bridge.protocol.PageMessages;
import dev.accelbridge.bridge.protocol.ToPage;
import dev.accelbridge.bridge.protocol.PageProbe;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A page that joined the bridge: who it is, its probe, and the jobs every caller may send (ping, probe again, renew,
 * close). Every job is a future that completes with the page's answer, or exceptionally with a {@link PageJobException}
 * (the page's error, a timeout, the page leaving, a lost GPU device). Jobs are executed by the page one after another, in
 * the order sent. Sessions (load, run, profile, release) are sent through {@link PageSessions}, the provider's.
 */
@PublicApi
public final class ConnectedPage {

    private final String id;
    private final String slot;
    private final PageProbe probe;
    private final String ortVersion;
    private final String ortError;
    private final String remoteAddress;
    private final String origin;
    private final Instant joinedAt = Instant.now();
    /** How jobs reach the page ({@link PageSessions} sends them too). */
    final PageChannel channel;
    /** The jobs sent and not yet answered, and the page's end: what the hub completes as answers arrive. */
    final PageJobs jobs = new PageJobs();

    ConnectedPage(String id, String slot, PageProbe probe, String ortVersion, String ortError, String remoteAddress, String origin,
                  PageChannel channel) {
        this.id = id;
        this.slot = slot;
        this.probe = probe;
        this.ortVersion = ortVersion;
        this.ortError = ortError;
        this.remoteAddress = remoteAddress;
        this.origin = origin;
        this.channel = channel;
    }

    /** The bridge's id of this page. */
    public String id() {
        return id;
    }

    /** The launch slot the page was opened with ({@code ?slot=} in its URL); empty for a page opened by hand. */
    public Optional<String> slot() {
        return Optional.ofNullable(slot);
    }

    /** What the page found when it probed its browser. */
    public PageProbe probe() {
        return probe;
    }

    /** onnxruntime-web's version as the page reports it ({@code ort.env.versions.web}), or null if it did not load. */
    public String ortVersion() {
        return ortVersion;
    }

    /** Why onnxruntime-web did not load in the page (its import's error), or null when it loaded. */
    public String ortError() {
        return ortError;
    }

    /** The peer address of its WebSocket. */
    public String remoteAddress() {
        return remoteAddress;
    }

    /** The Origin header it connected with, or null. */
    public String origin() {
        return origin;
    }

    /** When it joined. */
    public Instant joinedAt() {
        return joinedAt;
    }

    /** True until its WebSocket closes. */
    public boolean isOpen() {
        return jobs.isOpen();
    }

    /** Completes with the close reason when the page leaves. */
    public CompletableFuture<String> closed() {
        return jobs.closed();
    }

    /** Jobs sent and not yet answered. */
    public int pendingJobs() {
        return jobs.pending();
    }

    /** A ping job: completes with the WebSocket round trip in milliseconds, measured here. */
    public CompletableFuture<Double> ping(Duration timeout) {
        String job = JobMessages.nextId("j");
        String text = PageMessages.text(new ToPage.Ping(), job);
        long t0 = System.nanoTime();
        return jobs.<JsonNode>submit(job, MessageKind.PING, timeout, () -> channel.sendText(text))
                .thenApply(x -> {
                    double ms = (System.nanoTime() - t0) / 1e6;
                    PageMessages.read(x, FromPage.Pong.class); // held to the protocol like every answer
                    return ms;
                });
    }

    /**
     * Asks the page to open {@code pageUrl} (the bridge's page with a new slot) in its place, after the jobs it was given:
     * a fresh document in the same browser, which joins as a new page. This page then leaves.
     */
    public void renew(java.net.URI pageUrl) {
        channel.sendText(PageMessages.text(new ToPage.Renew(pageUrl.toString()), JobMessages.nextId("j")));
    }

    /** Asks the page to probe its browser again (e.g. after a GPU device was lost). */
    public CompletableFuture<PageProbe> reprobe(Duration timeout) {
        String job = JobMessages.nextId("j");
        String text = PageMessages.text(new ToPage.Probe(), job);
        return jobs.<JsonNode>submit(job, MessageKind.PROBE, timeout, () -> channel.sendText(text))
                .thenApply(n -> {
                    PageProbe p = PageMessages.read(n, FromPage.ProbeAnswer.class).probe();
                    return p == null ? PageProbe.parse(com.fasterxml.jackson.databind.node.MissingNode.getInstance()) : p;
                });
    }

    /** Closes the page's WebSocket (the page then shows that it was disconnected). */
    public void close(String reason) {
        channel.close(1000, reason);
    }

    @Override
    public String toString() {
        return "page " + id + (slot == null ? "" : " (slot " + slot + ")") + " " + probe.userAgent();
    }
}
