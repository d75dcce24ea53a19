package dev.accelbridge.browser.observe;

import com.microsoft.playwright.Download;
import com.microsoft.playwright.Frame;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.PlaywrightException;
import dev.accelbridge.core.Untrusted;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;

/**
 * A Playwright page's realms: every frame (the observer is Playwright's init script there) and, in Chromium, every
 * dedicated worker {@link WorkerAttacher} entered, each asked through its own CDP session.
 */
final class PlaywrightRealms implements Realms {
    /** How long a worker is given to answer. */
    static final Duration WORKER_ANSWER = Duration.ofSeconds(10);
    /** How long a download the observer asked for is given to start. */
    static final Duration DOWNLOAD_START = Duration.ofSeconds(10);
    // the observer's own JSON: the page's JSON.stringify and toJSON are not called
    private static final String REPORT = "(async () => { const o = " + KEY + "; return o ? await o.reportJson() : null; })()";

    private final Page page;
    private final WorkerAttacher.Attached attached;
    private final BiPredicate<String, Path> download;
    /** The blob: URLs whose downloads the reader asked for, and the page's own downloads refused. */
    private final java.util.Set<String> asked = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final java.util.concurrent.atomic.AtomicLong refused = new java.util.concurrent.atomic.AtomicLong();

    /** The realms of {@code page}; with {@code downloads}, the browser writes what is kept to disk itself ({@link #download}). */
    PlaywrightRealms(Page page, String script, boolean downloads) {
        this.page = page;
        page.addInitScript(script);
        this.attached = WorkerAttacher.attach(page, script);
        this.download = downloads ? this::download : null;
        if (downloads) {
            // found when tried: the browser accepted every download the page made (1.86 GB in a 20 s visit under
            // --keep 1M); the reader's browser keeps only what it asked for
            page.onDownload(d -> {
                if (!asked.contains(d.url())) {
                    refused.incrementAndGet();
                    try {
                        d.cancel();
                    } catch (PlaywrightException e) {
                        // it ended first
                    }
                }
            });
        }
    }

    @Override
    public String browserVersion() {
        com.microsoft.playwright.Browser b = page.context().browser();
        return b == null ? null : b.version();
    }

    @Override
    public long refusedDownloads() {
        return refused.get();
    }

    /**
     * A same-origin blob: URL of any realm of the page (its document's, a frame's, a worker's) downloaded through the
     * page's document: the browser writes the bytes, so nothing crosses the driver's channel but the file's path. False
     * when the download does not start or finish (another origin's URL, a page that does not answer).
     */
    private boolean download(String blobUrl, Path to) {
        asked.add(blobUrl);
        try {
            // the download of the URL asked for, and no other the page starts meanwhile: a blob: URL's bytes are the
            // realm's own and finite, so waiting for it to be written is bounded
            Download d = page.waitForDownload(new Page.WaitForDownloadOptions().setTimeout(DOWNLOAD_START.toMillis())
                            .setPredicate(x -> blobUrl.equals(x.url())),
                    () -> page.mainFrame().evaluate("u => { const o = " + KEY + "; return !!(o && o.save(u)); }", blobUrl));
            if (!blobUrl.equals(d.url())) {
                return false;
            }
            Path file = d.path(); // waits until the browser has written it all
            if (d.failure() != null || file == null) {
                return false;
            }
            Files.move(file, to, StandardCopyOption.REPLACE_EXISTING);
            return true;
        } catch (PlaywrightException | IOException e) {
            return false;
        } finally {
            asked.remove(blobUrl);
        }
    }

    @Override
    public List<Realm> realms() {
        List<Realm> out = new ArrayList<>();
        for (Frame f : page.frames()) {
            Observed.Realm where = new Observed.Realm(f == page.mainFrame() ? Observed.Realm.Kind.PAGE : Observed.Realm.Kind.FRAME,
                    Untrusted.bounded(f.url(), 500));
            out.add(Realms.of(where, () -> f.evaluate(REPORT),
                    expression -> f.evaluate("() => { const o = " + KEY + "; return o ? " + expression + " : null; }"), download));
        }
        attached.attacher().ifPresent(a -> a.targets().stream().filter(t -> t.worker() && t.failure() == null).forEach(t -> {
            Observed.Realm where = new Observed.Realm(Observed.Realm.Kind.WORKER, t.url());
            out.add(Realms.of(where, () -> a.evaluate(t, REPORT, WORKER_ANSWER).orElse(null), expression -> a.evaluate(t,
                    "(() => { const o = " + KEY + "; return o ? " + expression + " : null; })()", WORKER_ANSWER).orElse(null), download));
        }));
        return out;
    }

    @Override
    public List<Observed.Unseen> unentered() {
        List<Observed.Unseen> out = new ArrayList<>();
        attached.attacher().ifPresent(a -> a.targets().forEach(t -> {
            if (t.failure() != null) {
                out.add(new Observed.Unseen(kindOf(t.type()), t.url(), t.failure()));
            } else if (t.worker() && !t.enteredBeforeStart()) {
                out.add(new Observed.Unseen("worker", t.url(), "the observer was put in after the worker had started (Chromium "
                        + "does not hold a worker started by a worker), so a session it made before then would be missed"));
            } else if (!t.worker() && !"iframe".equals(t.type())) {
                out.add(new Observed.Unseen(kindOf(t.type()), t.url(), "the observer enters dedicated workers and frames only"));
            }
        }));
        return out;
    }

    @Override
    public boolean entersWorkers() {
        return attached.attacher().isPresent();
    }

    private static String kindOf(String cdpType) {
        return switch (String.valueOf(cdpType)) {
            case "service_worker" -> "service-worker";
            case "shared_worker" -> "shared-worker";
            case "iframe" -> "frame";
            default -> String.valueOf(cdpType);
        };
    }
}
