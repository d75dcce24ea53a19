package dev.accelbridge.browser.observe;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Frame;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.options.WaitForSelectorState;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.browser.testing.TestChromium;
import dev.accelbridge.core.testing.Nightly;
import dev.accelbridge.nativerunner.TinyOnnx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Apps that compute off the page's thread, as most do: a session in a module worker, a classic worker made from a
 * {@code blob:} URL, a worker a worker started, onnxruntime-web's proxy mode and a frame are each observed (the observer in
 * the worker before its first script, through CDP's auto-attach), the session's run agreeing with native; a shared worker,
 * which the observer does not enter, is said as unseen, never as absent.
 */
@RequiresBrowser
class ThreadedAppTest {
    @TempDir
    static Path dir;
    static ObservedApp app;
    static Playwright pw;
    static Browser browser;

    @BeforeAll
    static void start() throws Exception {
        app = new ObservedApp(dir);
        pw = Playwright.create();
        browser = TestChromium.launch(pw);
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.close();
        }
        if (pw != null) {
            pw.close();
        }
        if (app != null) {
            app.close();
        }
    }

    @Nightly(guardedBy = "ThreadedAppTest#aSessionInAWorkerIsObservedThereAndAgreesWithNative") // docs/testing.md#the-nightly-tier
    @ParameterizedTest(name = "{0}")
    @CsvSource({"/threaded?in=classic, blob:http://127.0.0.1:PORT/", "/threaded?in=nested, http://127.0.0.1:PORT/work.mjs"})
    void aClassicAndANestedWorkerToo(String path, String worker) throws Exception {
        aSessionInAWorkerIsObservedThereAndAgreesWithNative(path, worker);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"/threaded?in=module, http://127.0.0.1:PORT/work.mjs", "/proxy, http://127.0.0.1:PORT/ort/ort.all.min.mjs"})
    void aSessionInAWorkerIsObservedThereAndAgreesWithNative(String path, String worker) throws Exception {
        try (BrowserContext context = browser.newContext()) {
            Page page = context.newPage();
            PageObserver observer = PageObserver.install(page);
            app.drive(page, path);
            PageObserver.Reading seen = observer.readAll();
            if (path.contains("nested")) {
                // Chromium holds a worker's own worker only when the parent's auto-attach reached it first: entered late, said so
                assertThat(seen.unseen()).allSatisfy(u -> assertThat(u.why()).contains("after the worker had started"));
            } else {
                assertThat(seen.unseen()).isEmpty();
            }
            assertThat(seen.realms().get(0).realm().kind()).isEqualTo(Observed.Realm.Kind.PAGE);
            assertThat(seen.realms().get(0).sessions()).as("the page's own thread made none").isEmpty();
            Observed in = seen.realms().stream().filter(o -> !o.sessions().isEmpty()).findFirst().orElseThrow(
                    () -> new AssertionError("no realm saw the session: " + seen));
            assertThat(in.realm().kind()).isEqualTo(Observed.Realm.Kind.WORKER);
            assertThat(in.realm().url()).startsWith(worker.replace("PORT", app.url("").replaceAll(".*:", "")));
            agreesWithNative(observer, in);
        }
    }

    @Test
    void aSessionInAFrameIsObservedThereAndAgreesWithNative() throws Exception {
        try (BrowserContext context = browser.newContext()) {
            Page page = context.newPage();
            PageObserver observer = PageObserver.install(page);
            page.navigate(app.url("/framed"));
            Frame frame = page.waitForSelector("iframe").contentFrame();
            frame.locator("#run:enabled").click(new com.microsoft.playwright.Locator.ClickOptions().setTimeout(60_000));
            frame.waitForSelector("body[data-done]", new Frame.WaitForSelectorOptions().setState(WaitForSelectorState.ATTACHED)
                    .setTimeout(60_000));
            PageObserver.Reading seen = observer.readAll();
            Observed in = seen.realms().stream().filter(o -> !o.sessions().isEmpty()).findFirst().orElseThrow();
            assertThat(in.realm()).isEqualTo(new Observed.Realm(Observed.Realm.Kind.FRAME, app.url("/")));
            agreesWithNative(observer, in);
        }
    }

    @Test
    void aSharedWorkerIsSaidAsUnseen() {
        try (BrowserContext context = browser.newContext()) {
            Page page = context.newPage();
            PageObserver observer = PageObserver.install(page);
            page.navigate(app.url("/shared"));
            page.waitForSelector("body[data-done]", new Page.WaitForSelectorOptions().setState(WaitForSelectorState.ATTACHED));
            assertThat(observer.readAll().unseen()).singleElement().satisfies(u -> {
                assertThat(u.kind()).isEqualTo("shared-worker");
                assertThat(u.url()).isEqualTo(app.url("/outer.mjs"));
                assertThat(u.describe()).contains("unseen");
            });
        }
    }

    private void agreesWithNative(PageObserver observer, Observed in) throws Exception {
        Observed.Session s = assertThat(in.sessions()).singleElement().actual();
        assertThat(s.sha256()).isEqualTo(TinyOnnx.sha256(app.modelBytes));
        assertThat(observer.model(in, s)).hasValueSatisfying(b -> assertThat(b).isEqualTo(app.modelBytes));
        Observed.Run run = assertThat(s.runs()).singleElement().actual();
        assertThat(run.through()).isEqualTo("run");
        app.assertAgreesWithNative(run, 1e-5f);
    }
}
