package dev.accelbridge.browser.observe;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.options.WaitForSelectorState;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.browser.testing.TestChromium;
import dev.accelbridge.core.testing.Nightly;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What docs/observe.md says the observer cannot see, held where a test can hold it: a service worker is said as unseen,
 * never entered; a tensor over the report's 1 MiB is held by the page and written to disk whole, and past the budget is
 * seen by its shape only; a model and such a tensor leave a page or a worker whole in base64 parts or as downloads the
 * browser writes; a page loaded before the observer
 * was installed is not observed, and its next navigation is; an observed page answers {@code 'PTR_SIZE' in {}} with true.
 */
@RequiresBrowser
class ObserverLimitsTest {
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

    @Test
    void aServiceWorkerIsSaidAsUnseen() {
        try (BrowserContext context = browser.newContext()) {
            Page page = context.newPage();
            PageObserver observer = PageObserver.install(page);
            page.navigate(app.url("/service"));
            page.waitForSelector("body[data-done]", new Page.WaitForSelectorOptions().setState(WaitForSelectorState.ATTACHED));
            assertThat(page.locator("body").getAttribute("data-done")).isEqualTo("registered");
            assertThat(observer.readAll().unseen()).singleElement().satisfies(u -> {
                assertThat(u.kind()).isEqualTo("service-worker");
                assertThat(u.url()).isEqualTo(app.url("/sw.js"));
            });
        }
    }

    @Test
    void aTensorOverTheReportsBoundIsHeldAndWrittenToDiskWhole() throws Exception {
        try (BrowserContext context = browser.newContext()) {
            Page page = context.newPage();
            PageObserver observer = PageObserver.install(page);
            Observed seen = runOver(page, observer);
            Observed.Tensor x = seen.sessions().get(0).runs().get(0).inputs().get(0);
            assertThat(x.shape()).isEqualTo(List.of((long) ThreadedApp.OVER_ROWS, 4L));
            assertThat(x.byteLength()).isEqualTo(ThreadedApp.OVER_ROWS * 4L * 4L).isGreaterThan(1L << 20);
            assertThat(x.values()).as("not in the report").isNull();
            assertThat(x.cut()).isFalse();
            assertThat(x.held()).isNotNull();
            Map<Integer, Path> files = observer.keepTensors(seen, Set.of(), dir.resolve("held"), 64L << 20);
            assertThat(files).containsOnlyKeys(x.held());
            assertThat(x.tensor(id -> Optional.ofNullable(files.get(id)))).hasValueSatisfying(t -> {
                assertThat(t.shape()).containsExactly(ThreadedApp.OVER_ROWS, 4L);
                assertThat(t.toFloats()).containsOnly(0.25f);
            });
            assertThat(observer.keepTensors(observer.read(), Set.of(), dir.resolve("again"), 64L << 20))
                    .as("the realm let its copy go once it was on disk").isEmpty();
        }
    }

    @Nightly(guardedBy = "ObserverLimitsTest#aModelAndALargeTensorLeaveTheRealmWholeEitherWay") // docs/testing.md#the-nightly-tier
    @ParameterizedTest(name = "{0} from a {1}")
    @CsvSource({"PARTS, page", "DOWNLOADS, worker"})
    void theOtherTwoHandoversAndRealms(PageObserver.Handover handover, String realm) throws Exception {
        aModelAndALargeTensorLeaveTheRealmWholeEitherWay(handover, realm);
    }

    @ParameterizedTest(name = "{0} from a {1}")
    @CsvSource({"DOWNLOADS, page", "PARTS, worker"})
    void aModelAndALargeTensorLeaveTheRealmWholeEitherWay(PageObserver.Handover handover, String realm) throws Exception {
        try (BrowserContext context = browser.newContext()) {
            Page page = context.newPage();
            PageObserver observer = PageObserver.install(page, 64L << 20, handover);
            java.util.List<String> downloads = new java.util.concurrent.CopyOnWriteArrayList<>();
            page.onDownload(d -> downloads.add(d.url()));
            page.navigate(app.url(realm.equals("page") ? "/over" : "/threaded"));
            page.locator("#run:enabled").click();
            page.waitForSelector("body[data-done]", new Page.WaitForSelectorOptions().setState(WaitForSelectorState.ATTACHED));
            Observed seen = observer.readAll().realms().stream().filter(o -> !o.sessions().isEmpty()).findFirst().orElseThrow();
            assertThat(seen.realm().kind()).isEqualTo(realm.equals("page") ? Observed.Realm.Kind.PAGE : Observed.Realm.Kind.WORKER);
            Observed.Session s = seen.sessions().get(0);
            PageObserver.KeptModel kept = observer.keep(seen, s, dir.resolve(handover + realm), 64L << 20).orElseThrow();
            assertThat(kept.sha256()).isEqualTo(s.sha256());
            assertThat(Files.readAllBytes(kept.file())).isEqualTo(app.modelBytes);
            if (realm.equals("page")) {
                Observed.Tensor x = s.runs().get(0).inputs().get(0);
                Map<Integer, Path> files = observer.keepTensors(seen, Set.of(), dir.resolve(handover + "tensors"), 64L << 20);
                assertThat(x.tensor(id -> Optional.ofNullable(files.get(id)))).hasValueSatisfying(t -> assertThat(t.toFloats()).containsOnly(0.25f));
            }
            assertThat(downloads).as("what the browser wrote itself").hasSize(handover == PageObserver.Handover.DOWNLOADS
                    ? (realm.equals("page") ? 2 : 1) : 0).allMatch(u -> u.startsWith("blob:" + app.url("/").replaceAll("/$", "")));
        }
    }

    @Test
    void aTensorPastTheBudgetIsSeenByItsShapeAndCut() {
        try (BrowserContext context = browser.newContext()) {
            Page page = context.newPage();
            PageObserver observer = PageObserver.install(page, 1L << 20);
            Observed.Tensor x = runOver(page, observer).sessions().get(0).runs().get(0).inputs().get(0);
            assertThat(x.shape()).isEqualTo(List.of((long) ThreadedApp.OVER_ROWS, 4L));
            assertThat(x.cut()).isTrue();
            assertThat(x.held()).isNull();
            assertThat(x.tensor()).isEmpty();
        }
    }

    @Test
    void whatThePageReplacesLaterNeitherSilencesTheObserverNorIsChangedByIt() {
        // found when tried: Array.prototype.toJSON (as Prototype.js defines it) turned a session into "the page made no
        // onnxruntime-web session"; a page that replaced Array.prototype.map or slice silenced the observer; sloppy code
        // assigning PTR_SIZE to a frozen object or a primitive threw where it does not without the observer
        try (BrowserContext context = browser.newContext()) {
            Page page = context.newPage();
            PageObserver observer = PageObserver.install(page);
            page.navigate(app.url("/"));
            page.locator("#run:enabled").click();
            page.waitForSelector("body[data-done]", new Page.WaitForSelectorOptions().setState(WaitForSelectorState.ATTACHED));
            Object sloppy = page.evaluate("() => { try { const o = Object.freeze({}); o.PTR_SIZE = 4; (5).PTR_SIZE = 1; 'x'.PTR_SIZE = 2;"
                    + " return o.PTR_SIZE === undefined ? 'ok' : 'defined on a frozen object'; } catch (e) { return String(e); } }");
            assertThat(sloppy).isEqualTo("ok");
            page.evaluate("() => { Array.prototype.toJSON = function () { return 'an array'; };"
                    + " String.prototype.toJSON = function () { return 'a string'; };"
                    + " Array.prototype.map = function () { return []; }; Array.prototype.slice = function () { return []; };"
                    + " Array.prototype.push = function () { return 0; }; Promise.all = () => Promise.resolve([]);"
                    + " Uint8Array.prototype.slice = function () { return new Uint8Array(0); };"
                    + " String.prototype.slice = function () { return ''; }; JSON.stringify = () => '{}'; }");
            Observed seen = observer.read();
            assertThat(seen.sessions()).singleElement().satisfies(s -> {
                assertThat(s.runs()).singleElement().satisfies(r -> {
                    assertThat(r.inputs()).singleElement().satisfies(x -> assertThat(x.tensor()).isPresent());
                    assertThat(r.outputs()).isNotEmpty();
                });
                assertThat(s.created()).isTrue();
            });
        }
    }

    private static Observed runOver(Page page, PageObserver observer) {
        page.navigate(app.url("/over"));
        page.locator("#run:enabled").click();
        page.waitForSelector("body[data-done]", new Page.WaitForSelectorOptions().setState(WaitForSelectorState.ATTACHED));
        Observed seen = observer.read();
        assertThat(seen.sessions()).singleElement().satisfies(s -> assertThat(s.runs()).hasSize(1));
        return seen;
    }

    @Test
    void aPageThatReplacesTheEncodersAfterTheObserverIsReadRight() {
        try (BrowserContext context = browser.newContext()) {
            Page page = context.newPage();
            PageObserver observer = PageObserver.install(page);
            // the page's own first script, after the observer's: both base64 encoders answer garbage from now on
            page.addInitScript("globalThis.btoa = () => 'AAAA'; Uint8Array.prototype.toBase64 = function () { return 'AAAA'; };");
            page.navigate(app.url("/"));
            page.locator("#run:enabled").click();
            page.waitForSelector("body[data-done]", new Page.WaitForSelectorOptions().setState(WaitForSelectorState.ATTACHED));
            assertThat(page.evaluate("btoa('x')")).as("the page's own encoder is replaced").isEqualTo("AAAA");
            Observed.Session s = assertThat(observer.read().sessions()).singleElement().actual();
            assertThat(observer.model(s)).hasValueSatisfying(b -> assertThat(b).isEqualTo(app.modelBytes));
            float[] x = s.runs().get(0).inputs().get(0).tensor().orElseThrow().toFloats();
            assertThat(x).containsExactly(-0.5f, -0.375f, -0.25f, -0.125f, 0f, 0.125f, 0.25f, 0.375f);
        }
    }

    @Test
    void aPageLoadedBeforeInstallIsNotObservedAndItsNextNavigationIs() {
        try (BrowserContext context = browser.newContext()) {
            Page page = context.newPage();
            page.navigate(app.url("/"));
            page.locator("#run:enabled").click();
            page.waitForSelector("body[data-done]", new Page.WaitForSelectorOptions().setState(WaitForSelectorState.ATTACHED));
            PageObserver observer = PageObserver.install(page);
            assertThatThrownBy(observer::read).as("the document loaded before the observer has none");
            page.reload();
            page.locator("#run:enabled").click();
            page.waitForSelector("body[data-done]", new Page.WaitForSelectorOptions().setState(WaitForSelectorState.ATTACHED));
            assertThat(observer.read().sessions()).singleElement().satisfies(s -> assertThat(s.runs()).hasSize(1));
            assertThat(page.evaluate("'PTR_SIZE' in {}")).as("the observer's one name on Object.prototype").isEqualTo(true);
        }
    }
}
