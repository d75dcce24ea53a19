package dev.accelbridge.api;

import dev.accelbridge.browser.observe.PageObserver;

/**
 * Where the Java API starts:
 *
 * <pre>{@code
 * try (AccelbridgeSession session = Accelbridge.create(SessionOptions.builder().optStore(Path.of("matrix.duckdb")).build())) {
 *     SessionRun run = session.run(RunPlan.builder()
 *             .workload(w -> w.optUserModels(List.of(Path.of("models/my-model"))))
 *             .targets(t -> t.setBackends(List.of(BackendId.WEBGPU, BackendId.WASM, BackendId.CPU)))
 *             .build());
 *     for (CaseResult r : run.results()) {
 *         System.out.println(r.label() + ": " + r.summary());
 *     }
 * }
 * }</pre>
 *
 * There is no static state: each session is independent, and two sessions may use two stores.
 */
public final class Accelbridge {
    private Accelbridge() {
    }

    /**
     * Opens a session: the store is opened (created when absent, refused with DuckDB's own evidence when it cannot be
     * used), this host is detected and the native providers are found; browsers start with the first run that needs them.
     *
     * @throws dev.accelbridge.reports.StoreException when the store cannot be used; nothing is modified then
     */
    public static AccelbridgeSession create(SessionOptions options) {
        return new AccelbridgeSession(options);
    }

    /**
     * Observes {@code page}, a Playwright page the caller's own test drives: every onnxruntime-web session its app makes
     * from its next navigation on ({@link ObservedPage#observed()}), each judged against native CPU
     * ({@link ObservedPage#verdicts()}). Install it before the page navigates; nothing is stored.
     */
    public static ObservedPage observe(com.microsoft.playwright.Page page) {
        return new ObservedPage(PageObserver.install(page));
    }

    /**
     * Observes the pages of {@code driver}, a Selenium WebDriver session the caller's own test drives, as
     * {@link #observe(com.microsoft.playwright.Page)} does a Playwright page. The observer goes in through WebDriver BiDi's
     * preload scripts, so the session must have been made with BiDi on ({@code options.enableBiDi()}).
     *
     * @throws dev.accelbridge.core.AccelbridgeException when the session has no BiDi connection
     */
    public static ObservedPage observe(org.openqa.selenium.WebDriver driver) {
        return new ObservedPage(PageObserver.install(driver));
    }

    /** A session with the default options (the store {@code accelbridge run} uses, reports folder {@code accelbridge-out}). */
    public static AccelbridgeSession create() {
        return create(SessionOptions.builder().build());
    }
}
