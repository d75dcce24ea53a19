package dev.accelbridge.suites;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.AccelbridgeException;

/**
 * Root of every error raised by the test-suites module: model generation, model inspection and the
 * user-model folder loader. Specific subclasses are nested so callers can catch exactly what they handle.
 */
@PublicApi
public class SuiteException extends AccelbridgeException {

    public SuiteException(String problem, String fix) {
        super(problem, fix);
    }

    public SuiteException(String problem, String fix, Throwable cause) {
        super(problem, fix, cause);
    }

    /** A model folder or file given by the user does not exist or holds no ONNX model. */
    public static final class ModelNotFoundException extends SuiteException {
        public ModelNotFoundException(String problem, String fix) {
            super(problem, fix);
        }
    }

    /** A file is not a readable ONNX model (protobuf parse error, truncated download, no graph). */
    public static final class InvalidModelException extends SuiteException {
        public InvalidModelException(String problem, String fix, Throwable cause) {
            super(problem, fix, cause);
        }
    }

    /** A graph input the loader cannot feed: unknown element type, or a dynamic shape with no data given. */
    public static final class UnfeedableInputException extends SuiteException {
        public UnfeedableInputException(String problem, String fix) {
            super(problem, fix);
        }
    }

    /**
     * A graph value of a kind Accelbridge cannot feed or compare (a STRING tensor, a sequence or map): the model is
     * UNSUPPORTED, the backend is not to blame.
     */
    public static final class UnsupportedTypeException extends SuiteException {
        public UnsupportedTypeException(String problem, String fix) {
            super(problem, fix);
        }
    }

    /** Test data ({@code input_K.pb}, {@code output_K.pb}) or a tokenizer that cannot be read. */
    public static final class InvalidTestDataException extends SuiteException {
        public InvalidTestDataException(String problem, String fix, Throwable cause) {
            super(problem, fix, cause);
        }
    }

    /** Writing a generated model to the cache directory failed. */
    public static final class CacheException extends SuiteException {
        public CacheException(String problem, String fix, Throwable cause) {
            super(problem, fix, cause);
        }
    }
}
