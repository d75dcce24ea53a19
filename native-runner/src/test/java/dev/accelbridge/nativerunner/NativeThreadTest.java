package dev.accelbridge.nativerunner;

import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NativeThreadTest {
    @Test
    void aLibraryThatCannotLoadIsTheCasesFailureWithItsCauseNotTheRunsEnd() {
        assertThatThrownBy(() -> NativeThread.call(() -> {
            throw new ExceptionInInitializerError(new IllegalStateException("Failed to load Huggingface native library.",
                    new IOException("Blocked request to non-public address: publish.djl.ai")));
        })).isInstanceOf(NativeRunnerException.class)
                .hasMessageContaining("ONNX Runtime could not be loaded")
                .hasMessageContaining("Blocked request to non-public address: publish.djl.ai");
    }

    @Test
    void otherErrorsStillEndTheRun() {
        assertThatThrownBy(() -> NativeThread.call(() -> {
            throw new OutOfMemoryError("Java heap space");
        })).isInstanceOf(OutOfMemoryError.class);
    }

    @Test
    void aResultComesBack() {
        assertThat(NativeThread.call(() -> 42)).isEqualTo(42);
    }
}
