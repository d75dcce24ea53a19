package dev.accelbridge.junit5;

import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the annotated method once per requested backend × browser ({@link Browsers}; a native backend once), on the model
 * of {@link Model}, each invocation given its {@link dev.accelbridge.api.CaseResult} and named like
 * {@code webgpu [chromium 140]}. The native CPU run always takes place (it is the reference and the base of
 * {@code timesNative()}), but is an invocation only when {@code cpu} is listed.
 *
 * <p>A backend that cannot run here is an aborted (skipped) invocation whose message is the probe's evidence, never a
 * pass. By default each backend runs alone; with {@code fallback = true} it follows its default chain (webgpu → webnn-gpu →
 * webnn-cpu → wasm, cuda → openvino → cpu, ...), and an invocation that fell back is named {@code webgpu → wasm [chromium 140]}.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@TestTemplate
@ExtendWith(AccelbridgeExtension.class)
public @interface Backends {
    /** Backend ids: webgpu, webnn-gpu, webnn-cpu, webnn-npu, wasm, cuda, rocm, coreml, openvino, cpu. */
    String[] value();

    /** Follow each backend's default fallback chain instead of running it alone. */
    boolean fallback() default false;
}
