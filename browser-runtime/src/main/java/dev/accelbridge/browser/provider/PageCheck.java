package dev.accelbridge.browser.provider;

import dev.accelbridge.bridge.hub.PageSessions;

import dev.accelbridge.bridge.hub.ConnectedPage;
import dev.accelbridge.bridge.hub.ExecutionProviderSpec;
import dev.accelbridge.bridge.hub.LoadedSession;
import dev.accelbridge.bridge.hub.RunOutcome;

import dev.accelbridge.core.DType;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.suites.onnx.OnnxTensors;
import dev.accelbridge.suites.onnx.proto.Onnx;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Whether a page can still be trusted after an inference failed in it. A run that throws can leave onnxruntime-web's
 * state broken (seen with 1.30.0: after the WebGPU MaxPool kernel refused ceil_mode, every later WebGPU kernel of the
 * page failed with "not allowed to be called recursively"); most do not (a WebGPU kernel's own "[WebGPU] Kernel ... failed"
 * is caught and cleaned up by onnxruntime-web). Instead of a fresh page after every failed run, which costs a page load
 * and on WebGPU a new device with every shader compiled again, the page runs a known little model on the provider that
 * failed (and on wasm, which shares the one WebAssembly module): {@code Relu(Transpose(MatMul(x, w) + b))} over small
 * integers, exact in float32, so its answer must be exact. A page that answers wrongly, fails or does not answer in time
 * gets a fresh page.
 */
public final class PageCheck {
    public static final long[] X_SHAPE = {2, 3};
    public static final float[] X = {1, -2, 3, 0, 4, -1};
    static final float[] W = {2, 0, 1, -1, 3, 1};
    static final float[] B = {-4, 6};
    /** {@code Relu(Transpose(MatMul(X, W) + B))}, shape [2, 2]. */
    public static final float[] EXPECTED = expected();
    /** The check model's bytes (the op sweep's bare loop runs the same check). */
    public static final byte[] MODEL = model();

    /**
     * A check's outcome: {@code exact}, or what went wrong; {@code answered} false when the page did not answer in time
     * (a page that takes no message cannot be told to open a fresh one either).
     */
    record Outcome(boolean exact, boolean answered, String detail) {
        static final Outcome EXACT = new Outcome(true, true, "exact");

        static Outcome wrong(String detail) {
            return new Outcome(false, true, detail);
        }
    }

    private PageCheck() {
    }

    /** Runs the check on {@code page} with {@code ep}'s provider. */
    static Outcome run(ConnectedPage page, ExecutionProviderSpec ep, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            LoadedSession s = PageSessions.of(page).loadBytes("accelbridge-page-check", MODEL, ep, timeout).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            try {
                RunOutcome r = PageSessions.of(page).run(s.sessionId(), List.of(NamedTensor.ofFloats("x", X_SHAPE, X)), 0, 1, left(deadline))
                        .get(left(deadline).toMillis(), TimeUnit.MILLISECONDS);
                return verdict(r.outputs()).map(d -> Outcome.wrong(ep + ": " + d)).orElse(Outcome.EXACT);
            } finally {
                PageSessions.of(page).release(s.sessionId(), left(deadline));
            }
        } catch (java.util.concurrent.ExecutionException e) {
            return Outcome.wrong(ep + ": " + e.getCause().getMessage());
        } catch (java.util.concurrent.TimeoutException e) {
            return new Outcome(false, false, ep + ": no answer within " + timeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome(false, false, ep + ": interrupted");
        }
    }

    /** Empty when {@code outputs} are the check's exact answer, else how they differ. */
    static Optional<String> verdict(List<NamedTensor> outputs) {
        if (outputs.size() != 1 || outputs.get(0).dtype() != DType.FLOAT32) {
            return Optional.of("the check model answered " + outputs);
        }
        float[] got = outputs.get(0).toFloats();
        return Arrays.equals(got, EXPECTED) ? Optional.empty()
                : Optional.of("the check model answered " + Arrays.toString(got) + " where " + Arrays.toString(EXPECTED) + " is exact");
    }

    private static Duration left(long deadline) {
        return Duration.ofNanos(Math.max(deadline - System.nanoTime(), 1_000_000));
    }

    private static float[] expected() {
        float[] y = new float[4]; // y[j][i] = relu(sum_k x[i][k] w[k][j] + b[j])
        for (int i = 0; i < 2; i++) {
            for (int j = 0; j < 2; j++) {
                float v = B[j];
                for (int k = 0; k < 3; k++) {
                    v += X[i * 3 + k] * W[k * 2 + j];
                }
                y[j * 2 + i] = Math.max(v, 0);
            }
        }
        return y;
    }

    private static byte[] model() {
        Onnx.GraphProto.Builder g = Onnx.GraphProto.newBuilder().setName("accelbridge-page-check")
                .addInput(value("x", 2, 3)).addOutput(value("y", 2, 2))
                .addInitializer(OnnxTensors.toProto(NamedTensor.ofFloats("w", new long[] {3, 2}, W)))
                .addInitializer(OnnxTensors.toProto(NamedTensor.ofFloats("b", new long[] {2}, B)))
                .addNode(node("MatMul", List.of("x", "w"), "mm"))
                .addNode(node("Add", List.of("mm", "b"), "add"))
                .addNode(node("Transpose", List.of("add"), "t").addAttribute(Onnx.AttributeProto.newBuilder().setName("perm")
                        .setType(Onnx.AttributeProto.AttributeType.INTS).addInts(1).addInts(0)))
                .addNode(node("Relu", List.of("t"), "y"));
        return Onnx.ModelProto.newBuilder().setIrVersion(8).setProducerName("accelbridge")
                .addOpsetImport(Onnx.OperatorSetIdProto.newBuilder().setDomain("").setVersion(17))
                .setDocString("Accelbridge's page check: exact in float32").setGraph(g).build().toByteArray();
    }

    private static Onnx.NodeProto.Builder node(String op, List<String> inputs, String output) {
        return Onnx.NodeProto.newBuilder().setOpType(op).setName(output + "/" + op).addAllInput(inputs).addOutput(output);
    }

    private static Onnx.ValueInfoProto value(String name, long... dims) {
        Onnx.TensorShapeProto.Builder shape = Onnx.TensorShapeProto.newBuilder();
        for (long d : dims) {
            shape.addDim(Onnx.TensorShapeProto.Dimension.newBuilder().setDimValue(d));
        }
        return Onnx.ValueInfoProto.newBuilder().setName(name).setType(Onnx.TypeProto.newBuilder().setTensorType(
                Onnx.TypeProto.Tensor.newBuilder().setElemType(DType.FLOAT32.onnxCode()).setShape(shape))).build();
    }
}
