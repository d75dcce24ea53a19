package dev.accelbridge.bridge.protocol;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The probe → Availability mapping, on probe objects shaped as probe.mjs sends them (values measured in Chromium 156 / 153). */
class PageProbeTest {
    static final ObjectMapper JSON = new ObjectMapper();

    static PageProbe parse(String json) throws Exception {
        return PageProbe.parse(JSON.readTree(json.replace('\'', '"')));
    }

    @Test
    void debianChromiumWithSwiftshaderAndNoWebnnBackend() throws Exception {
        PageProbe p = parse("{'userAgent':'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36',"
                + "'hardwareConcurrency':2,'crossOriginIsolated':true,'wasm':{'present':true,'simd':true,'threads':true,'sharedArrayBuffer':true},"
                + "'webgpu':{'present':true,'adapterFound':true,'vendor':'google','architecture':'swiftshader','device':'','description':'',"
                + "'isFallbackAdapter':true,'features':['subgroups','timestamp-query'],'limits':{'maxBufferSize':268435456}},"
                + "'webnn':{'present':true,'evidence':'navigator.ml present','contexts':[{'options':{'deviceType':'cpu'},'ok':false,"
                + "'error':'NotSupportedError: WebNN is not supported on this platform.'}]}}");
        Availability gpu = p.availability(BackendId.WEBGPU, "chromium 156");
        assertThat(gpu.available()).isTrue();
        assertThat(gpu.evidence()).contains("google swiftshader (software adapter)", "shader-f16 no");
        assertThat(p.webgpu().software()).isTrue();
        Availability nn = p.availability(BackendId.WEBNN_CPU, "chromium 156");
        assertThat(nn.available()).isFalse();
        assertThat(nn.evidence()).isEqualTo("navigator.ml.createContext({\"deviceType\":\"cpu\"}) failed: NotSupportedError: WebNN is not supported on this platform.");
        assertThat(p.availability(BackendId.WEBNN_NPU, "x").evidence()).contains("no createContext attempt for deviceType 'npu'");
        assertThat(p.availability(BackendId.WASM, "x").evidence()).contains("SIMD yes", "threads yes", "hardwareConcurrency 2");
        assertThat(p.availability(BackendId.CPU, "x").available()).isFalse();
        assertThat(PageHost.browserFromUserAgent(p.userAgent())).containsExactly("chrome-headless", "156.0.0.0");
    }

    @Test
    void browsersWithoutAdapterOrWebnnSayExactlyWhy() throws Exception {
        PageProbe p = parse("{'userAgent':'Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0','crossOriginIsolated':false,"
                + "'wasm':{'present':true,'simd':true,'threads':false},"
                + "'webgpu':{'present':true,'adapterFound':false,'evidence':'navigator.gpu present, requestAdapter() returned null'},"
                + "'webnn':{'present':false,'contexts':[],'evidence':'navigator.ml undefined'}}");
        assertThat(p.availability(BackendId.WEBGPU, "firefox 153").evidence()).isEqualTo("navigator.gpu present, requestAdapter() returned null");
        assertThat(p.availability(BackendId.WEBNN_GPU, "firefox 153").evidence()).isEqualTo("navigator.ml undefined");
        assertThat(p.availability(BackendId.WASM, "firefox 153").evidence()).contains("threads no (crossOriginIsolated false");
        assertThat(p.webgpu().label()).isNull();
        assertThat(PageHost.browserFromUserAgent(p.userAgent())).containsExactly("firefox", "153.0");
        // the same page served over plain HTTP from another host says why WebGPU and WebNN are gone, and what to do
        PageProbe insecure = parse("{'secureContext':false,'crossOriginIsolated':false,'hardwareConcurrency':2,"
                + "'wasm':{'present':true,'simd':true,'threads':false},'webgpu':{'present':false,'adapterFound':false,"
                + "'evidence':'navigator.gpu undefined'},'webnn':{'present':false,'contexts':[],'evidence':'navigator.ml undefined'}}");
        assertThat(insecure.availability(BackendId.WEBGPU, "x").evidence()).startsWith("navigator.gpu undefined; the page is not a "
                + "secure context").contains("serve the bridge over HTTPS");
        assertThat(insecure.availability(BackendId.WEBNN_CPU, "x").evidence()).contains("not a secure context");
        assertThat(insecure.isolationWarning(BackendId.WASM)).hasValueSatisfying(w -> assertThat(w)
                .startsWith(dev.accelbridge.core.Diagnostic.NOT_ISOLATED).contains("one thread where this browser has 2 cores"));
        assertThat(insecure.isolationWarning(BackendId.WEBGPU)).isEmpty();
    }

    @Test
    void aHardwareAdapterIsNotLabelledSoftware() throws Exception {
        PageProbe p = parse("{'webgpu':{'present':true,'adapterFound':true,'vendor':'nvidia','architecture':'ampere','device':'',"
                + "'description':'NVIDIA GeForce RTX 3060','isFallbackAdapter':false,'features':['shader-f16']},'wasm':{'present':true,'simd':false}}");
        assertThat(p.webgpu().software()).isFalse();
        assertThat(p.webgpu().label()).isEqualTo("nvidia ampere NVIDIA GeForce RTX 3060");
        assertThat(p.webgpu().hasFeature("shader-f16")).isTrue();
        assertThat(p.availability(BackendId.WASM, "x").available()).isFalse();
    }
}
