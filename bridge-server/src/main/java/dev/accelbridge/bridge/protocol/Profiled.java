package dev.accelbridge.bridge.protocol;

import dev.accelbridge.core.PublicApi;

import java.util.List;

/**
 * A profile job's answer: the profiled runs' times, onnxruntime-web's profiler events per node (every run of the
 * session, the untimed one first), the session's runs, the WebGPU kernels of the profiled runs, and whether timestamp
 * queries gave GPU times (null off WebGPU).
 *
 * @param session        the session
 * @param iterations     the profiled runs
 * @param samplesMs      their times
 * @param nodes          the node events
 * @param runs           the session's runs
 * @param gpuKernels     the GPU kernels
 * @param timestampQuery whether the GPU's timestamp queries gave times
 */
@PublicApi
public record Profiled(String session, Integer iterations, List<Double> samplesMs, List<NodeEvent> nodes, List<RunEvent> runs,
                       List<GpuKernel> gpuKernels, Boolean timestampQuery) implements FromPage {
    @Override
    public MessageKind kind() {
        return MessageKind.PROFILED;
    }

    /** A node's kernel time: the node, its op, the provider it ran on, microseconds, and when. */
    public record NodeEvent(String node, String op, String provider, Double us, Double ts) {
    }

    /** One run of the session: when, and how long in microseconds. */
    public record RunEvent(Double ts, Double us) {
    }

    /** A WebGPU kernel: its node, op, program and nanoseconds. */
    public record GpuKernel(String node, String op, String program, Double ns) {
    }
}
