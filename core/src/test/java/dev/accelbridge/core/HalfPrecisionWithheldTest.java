package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** shader-f16 withheld by Chrome on Linux on NVIDIA's Vulkan driver: said there, and only there. */
class HalfPrecisionWithheldTest {
    private static final String LINUX_CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
    private static final String WINDOWS_CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";

    @Test
    void linuxChromeOnNvidiaWithoutF16IsSaidWithTheBugAndTheOptInFlag() {
        assertThat(HalfPrecisionWithheld.why(LINUX_CHROME, "nvidia", false)).hasValueSatisfying(w -> assertThat(w)
                .contains("crbug.com/42251215", "a user's Chrome", HalfPrecisionWithheld.OPT_IN_FLAG));
    }

    @Test
    void anythingElseIsNotExplainedByIt() {
        assertThat(HalfPrecisionWithheld.why(LINUX_CHROME, "nvidia", true)).isEmpty();
        assertThat(HalfPrecisionWithheld.why(WINDOWS_CHROME, "nvidia", false)).isEmpty();
        assertThat(HalfPrecisionWithheld.why(LINUX_CHROME, "google", false)).isEmpty(); // SwiftShader lacks it for its own reasons
        assertThat(HalfPrecisionWithheld.why("Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0", "nvidia", false)).isEmpty();
        assertThat(HalfPrecisionWithheld.why(null, null, false)).isEmpty();
    }
}
