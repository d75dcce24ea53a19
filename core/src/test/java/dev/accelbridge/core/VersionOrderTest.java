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
        assertThat(VersionOrder.between(published, "1.17.0", "1.22.0"))
                .containsExactly("1.17.0", "1.21.1", "1.22.0-dev.20250409-89f8206ba4", "1.22.0");
    }
}
