package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

class DjlDefaultsTest {
    @Test
    void anUnsetHostGetsNoAlternativeEngineAndTheCpuTokenizers() {
        Properties p = new Properties();
        DjlDefaults.apply(p, Map.of());
        assertThat(p.getProperty("ai.djl.onnx.disable_alternative")).isEqualTo("true");
        assertThat(p.getProperty("RUST_FLAVOR")).isEqualTo("cpu");
    }

    @Test
    void theUsersOwnPropertyOrVariableStands() {
        Properties p = new Properties();
        p.setProperty("ai.djl.onnx.disable_alternative", "false");
        DjlDefaults.apply(p, Map.of("RUST_FLAVOR", "cu124"));
        assertThat(p.getProperty("ai.djl.onnx.disable_alternative")).isEqualTo("false");
        assertThat(p.getProperty("RUST_FLAVOR")).as("the variable is DJL's to read, not copied").isNull();
    }
}
