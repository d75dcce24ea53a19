package dev.accelbridge.browser.observe;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.microsoft.playwright.CDPSession;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.PlaywrightException;
import dev.accelbridge.core.Untrusted;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Enters every dedicated worker a Chromium page starts, nested ones and {@code blob:} ones included, before its first
 * script runs: a CDP session of its own on the page auto-attaches to the page's workers and frames with
 * {@code waitForDebuggerOnStart}, so each is held until the observer script has been evaluated in it and then let go
 * ({@code Runtime.runIfWaitingForDebugger}). The session is not flattened, so a worker's messages travel inside
 * {@code Target.sendMessageToTarget} through its parents, which Playwright's {@link CDPSession} (no session ids of its
 * own) can carry. Frames are let go at once (Playwright's init script is already in them); service and shared workers
 * are let go and said as not entered. Every call runs on the Playwright thread, the events included.
 */
final class WorkerAttacher {
    /** A target the page started, as Chromium named it, and whether the observer is in it. */
    record Target(String sessionId, Target parent, String type, String url, boolean enteredBeforeStart, String failure) {
        /** A dedicated worker the observer is in. */
        boolean worker() {
            return "worker".equals(type);
        }

        Target failed(String why) {
            return new Target(sessionId, parent, type, url, false, why);
        }
    }

    private final Page page;
    private final CDPSession cdp;
    private final String script;
    private final Map<String, Target> bySession = new LinkedHashMap<>();
    private final Map<Integer, JsonObject> answers = new HashMap<>();
    private final Map<Integer, String> injections = new HashMap<>();
    private int nextId = 1;

    private WorkerAttacher(Page page, CDPSession cdp, String script) {
        this.page = page;
        this.cdp = cdp;
        this.script = script;
    }

    /**
     * Starts entering {@code page}'s workers; empty when its browser speaks no CDP (Firefox, WebKit), with why.
     */
    static Attached attach(Page page, String script) {
        CDPSession cdp;
        try {
            cdp = page.context().newCDPSession(page);
        } catch (PlaywrightException e) {
            return new Attached(Optional.empty(), "workers are not entered in this browser (it has no Chrome DevTools Protocol): "
                    + Untrusted.bounded(Untrusted.oneLine(String.valueOf(e.getMessage())), 200));
        }
        WorkerAttacher a = new WorkerAttacher(page, cdp, script);
        cdp.on("Target.attachedToTarget", ev -> a.attached(null, ev));
        cdp.on("Target.receivedMessageFromTarget", ev -> a.received(ev));
        cdp.on("Target.detachedFromTarget", ev -> a.bySession.remove(string(ev, "sessionId")));
        cdp.send("Target.setAutoAttach", autoAttach());
        return new Attached(Optional.of(a), null);
    }

    /** What {@link #attach} made: the attacher, or why there is none. */
    record Attached(Optional<WorkerAttacher> attacher, String why) {
    }

    /** The targets attached now, in the order they were. */
    List<Target> targets() {
        return List.copyOf(bySession.values());
    }

    /**
     * Evaluates {@code expression} (a promise is awaited) in a worker and returns its value as a string, or empty when the
     * worker is gone, threw, or did not answer within {@code timeout}.
     */
    Optional<String> evaluate(Target t, String expression, Duration timeout) {
        JsonObject params = new JsonObject();
        params.addProperty("expression", expression);
        params.addProperty("awaitPromise", true);
        params.addProperty("returnByValue", true);
        int id;
        try {
            id = send(t, "Runtime.evaluate", params);
        } catch (PlaywrightException e) {
            return Optional.empty();
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!answers.containsKey(id) && System.nanoTime() < deadline && bySession.containsKey(t.sessionId())) {
            page.waitForTimeout(5); // the answer comes as an event, dispatched while Playwright is called
        }
        JsonObject answer = answers.remove(id);
        if (answer == null || !answer.has("result")) {
            return Optional.empty();
        }
        JsonObject result = answer.getAsJsonObject("result");
        if (result.has("exceptionDetails") || !result.has("result")) {
            return Optional.empty();
        }
        JsonElement value = result.getAsJsonObject("result").get("value");
        return value == null || !value.isJsonPrimitive() ? Optional.empty() : Optional.of(value.getAsString());
    }

    private static JsonObject autoAttach() {
        JsonObject p = new JsonObject();
        p.addProperty("autoAttach", true);
        p.addProperty("waitForDebuggerOnStart", true);
        p.addProperty("flatten", false);
        return p;
    }

    private void attached(Target parent, JsonObject ev) {
        String sessionId = string(ev, "sessionId");
        JsonObject info = ev.getAsJsonObject("targetInfo");
        if (sessionId == null || info == null) {
            return;
        }
        boolean waiting = ev.has("waitingForDebugger") && ev.get("waitingForDebugger").getAsBoolean();
        String type = string(info, "type");
        Target t = new Target(sessionId, parent, type, Untrusted.bounded(String.valueOf(string(info, "url")), 500), waiting, null);
        bySession.put(sessionId, t);
        try {
            if (t.worker()) {
                // in order: the worker's inspector runs them one after another, so the observer is in before the script
                injections.put(send(t, "Runtime.evaluate", expression(script)), sessionId);
                send(t, "Target.setAutoAttach", autoAttach());
            } else if ("iframe".equals(type)) {
                send(t, "Target.setAutoAttach", autoAttach());
            }
            send(t, "Runtime.runIfWaitingForDebugger", new JsonObject());
        } catch (PlaywrightException e) {
            bySession.computeIfPresent(sessionId, (k, v) -> v.failed("it could not be entered: " + Untrusted.bounded(
                    Untrusted.oneLine(String.valueOf(e.getMessage())), 200)));
        }
    }

    private static JsonObject expression(String source) {
        JsonObject p = new JsonObject();
        p.addProperty("expression", source);
        return p;
    }

    private void received(JsonObject ev) {
        Target from = bySession.get(string(ev, "sessionId"));
        String message = string(ev, "message");
        if (from != null && message != null) {
            message(from, message);
        }
    }

    /** A message from target {@code from}: an answer, or an event of its own (a nested worker attached, or its messages). */
    private void message(Target from, String text) {
        JsonObject m;
        try {
            m = JsonParser.parseString(text).getAsJsonObject();
        } catch (RuntimeException e) {
            return;
        }
        if (m.has("id")) {
            int id = m.get("id").getAsInt();
            String injected = injections.remove(id);
            if (injected != null) {
                String why = m.has("error") ? String.valueOf(m.get("error")) : m.has("result") && m.getAsJsonObject("result").has("exceptionDetails")
                        ? String.valueOf(m.getAsJsonObject("result").get("exceptionDetails")) : null;
                if (why != null) {
                    bySession.computeIfPresent(injected, (k, v) -> v.failed("the observer could not be put in: "
                            + Untrusted.bounded(Untrusted.oneLine(why), 200)));
                }
            } else {
                answers.put(id, m);
            }
            return;
        }
        String method = string(m, "method");
        JsonObject params = m.has("params") && m.get("params").isJsonObject() ? m.getAsJsonObject("params") : new JsonObject();
        if ("Target.attachedToTarget".equals(method)) {
            attached(from, params);
        } else if ("Target.receivedMessageFromTarget".equals(method)) {
            Target child = bySession.get(string(params, "sessionId"));
            String inner = string(params, "message");
            if (child != null && inner != null) {
                message(child, inner);
            }
        } else if ("Target.detachedFromTarget".equals(method)) {
            bySession.remove(string(params, "sessionId"));
        }
    }

    /** Sends {@code method} to target {@code t} through its parents; returns the message's id. */
    private int send(Target t, String method, JsonObject params) {
        int id = nextId++;
        JsonObject m = new JsonObject();
        m.addProperty("id", id);
        m.addProperty("method", method);
        m.add("params", params);
        String text = m.toString();
        Target at = t;
        while (at.parent() != null) {
            JsonObject wrap = new JsonObject();
            wrap.addProperty("id", nextId++);
            wrap.addProperty("method", "Target.sendMessageToTarget");
            JsonObject p = new JsonObject();
            p.addProperty("sessionId", at.sessionId());
            p.addProperty("message", text);
            wrap.add("params", p);
            text = wrap.toString();
            at = at.parent();
        }
        JsonObject p = new JsonObject();
        p.addProperty("sessionId", at.sessionId());
        p.addProperty("message", text);
        cdp.send("Target.sendMessageToTarget", p);
        return id;
    }

    private static String string(JsonObject o, String key) {
        JsonElement e = o == null ? null : o.get(key);
        return e == null || !e.isJsonPrimitive() ? null : e.getAsString();
    }
}
