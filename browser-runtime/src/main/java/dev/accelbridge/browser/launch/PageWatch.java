package dev.accelbridge.browser.launch;

import com.microsoft.playwright.Page;
import dev.accelbridge.core.Untrusted;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * What a Playwright page said on its way to the bridge: requests that failed, errors it logged or threw, a crash or a
 * close, the last few of each kept. When a launched page does not join, this is the evidence of why (an unreachable
 * bridge, a refused certificate, a script that did not load) where otherwise only "no page joined" could be said.
 * Everything is the browser's own text, so each entry is bounded. Touched only on the launcher's Playwright thread,
 * where Playwright delivers a page's events.
 */
final class PageWatch {
    private static final int KEEP = 6;
    private final Deque<String> events = new ArrayDeque<>();
    private final Page page;

    private PageWatch(Page page) {
        this.page = page;
    }

    /** Starts watching {@code page}: call before it navigates. */
    static PageWatch on(Page page) {
        PageWatch w = new PageWatch(page);
        page.onRequestFailed(r -> w.add("request failed: " + r.url() + " " + r.failure()));
        page.onPageError(e -> w.add("page error: " + e));
        page.onConsoleMessage(m -> {
            if ("error".equals(m.type())) {
                w.add("console error: " + m.text());
            }
        });
        page.onCrash(p -> w.add("the page crashed"));
        page.onClose(p -> w.add("the page closed"));
        return w;
    }

    private void add(String event) {
        if (events.size() == KEEP) {
            events.removeFirst();
        }
        events.addLast(Untrusted.bounded(event, 300));
    }

    /**
     * Where the page is and what it said. Asking the page its address first lets Playwright deliver the events that
     * arrived since its last call.
     */
    String describe() {
        String url;
        try {
            url = page.isClosed() ? "closed" : (String) page.evaluate("location.href");
        } catch (RuntimeException e) {
            url = "not answering (" + LaunchSupport.firstLine(e) + ")";
        }
        StringBuilder out = new StringBuilder("the page is at ").append(Untrusted.bounded(url, 200));
        if (events.isEmpty()) {
            out.append(", and reported no failed request or error");
        } else {
            out.append("; it reported: ").append(String.join("; ", events));
        }
        return out.toString();
    }
}
