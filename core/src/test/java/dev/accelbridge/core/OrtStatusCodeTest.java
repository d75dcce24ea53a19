package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** onnxruntime-web's refusals, as its pages report them, read once into ONNX Runtime's status codes. */
class OrtStatusCodeTest {
    @Test
    void aRefusalsCodeIsReadFromItsMessage() {
        assertThat(OrtStatusCode.ofSessionRefusal("Error: Can't create a session. ERROR_CODE: 9, ERROR_MESSAGE: Could not find an "
                + "implementation for Foo(1) node with name ''")).contains(OrtStatusCode.NOT_IMPLEMENTED);
        assertThat(OrtStatusCode.ofSessionRefusal("Can't create a session. ERROR_CODE: 1, ERROR_MESSAGE: transformer_memcpy.cc:254"))
                .contains(OrtStatusCode.FAIL);
        assertThat(OrtStatusCode.ofSessionRefusal("Can't create a session. ERROR_CODE: 11, ERROR_MESSAGE: x")).contains(OrtStatusCode.EP_FAIL);
        // a code in a message of another kind, an unknown code, no message: nothing is read
        assertThat(OrtStatusCode.ofSessionRefusal("ERROR_CODE: 9, in a message of another kind")).isEmpty();
        assertThat(OrtStatusCode.ofSessionRefusal("Can't create a session. ERROR_CODE: 99, ERROR_MESSAGE: x")).isEmpty();
        assertThat(OrtStatusCode.ofSessionRefusal(null)).isEmpty();
    }

    @Test
    void whatEachCodeMeansForTheCaseIsSaidOnce() {
        assertThat(OrtStatusCode.values()).filteredOn(OrtStatusCode::optimizable)
                .containsExactly(OrtStatusCode.FAIL, OrtStatusCode.RUNTIME_EXCEPTION);
        assertThat(OrtStatusCode.values()).filteredOn(OrtStatusCode::cleanRefusal).extracting(OrtStatusCode::code)
                .containsExactly(2, 3, 4, 7, 9, 10);
        assertThat(OrtStatusCode.values()).extracting(OrtStatusCode::code).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
    }
}
