package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class VersionOrderTest {
    @Test
    void versionsSortByPrecedenceAndADevBuildBeforeItsRelease() {
        List<String> published = List.of("1.30.0", "1.9.0", "1.22.0", "1.22.0-dev.20250409-89f8206ba4", "1.21.1", "1.17.0");
        assertThat(published.stream().sorted(VersionOrder.ASCENDING).toList())
                .containsExactly("1.9.0", "1.17.0", "1.21.1", "1.22.0-dev.20250409-89f8206ba4", "1.22.0", "1.30.0");
        assertThat(VersionOrder.compare("141", "153")).isNegative();
        assertThat(VersionOrder.compare("99", "153")).isNegative();
        assertThat(VersionOrder.isRelease("1.22.0")).isTrue();
        assertThat(VersionOrder.isRelease("1.22.0-dev.20250409-89f8206ba4")).isFalse();
        // onnxruntime-web's dev builds between two releases, as the registry lists them: by date (found when tried: the
        // library's own pre-release comparison put the 25 September build before the 21 August one)
        List<String> dev = List.of("1.20.1", "1.20.0-dev.20240925-a47254eaef", "1.19.2", "1.20.0-dev.20240821-009209e016",
                "1.20.0", "1.20.0-dev.20241022-2d00351d7b", "1.20.0-dev.20240827-1d059b8702", "1.20.0-rc.1");
        assertThat(dev.stream().sorted(VersionOrder.ASCENDING).toList()).containsExactly("1.19.2", "1.20.0-dev.20240821-009209e016",
                "1.20.0-dev.20240827-1d059b8702", "1.20.0-dev.20240925-a47254eaef", "1.20.0-dev.20241022-2d00351d7b", "1.20.0-rc.1",
                "1.20.0", "1.20.1");
        assertThat(VersionOrder.between(published, "1.17.0", "1.22.0"))
                .containsExactly("1.17.0", "1.21.1", "1.22.0-dev.20250409-89f8206ba4", "1.22.0");
    }
}
