package dev.accelbridge.nativerunner;

import java.time.Duration;

/**
 * Options of {@link DjlOnnxRuntimeProvider}.
 *
 * @param memorySampleInterval how often the background sampler reads the process RSS during a case;
 *                             {@link Duration#ZERO} turns the sampler off (the peak then comes from the
 *                             kernel's VmHWM where Linux lets it be reset, else from before/after only)
 * @param intraOpThreads       ONNX Runtime intra-op threads per session; null = ORT's default (one per core)
 * @param interOpThreads       ONNX Runtime inter-op threads per session; null = ORT's default
 * @param optLevel             ORT graph optimisation level ({@code NO_OPT}, {@code BASIC_OPT},
 *                             {@code EXTENDED_OPT}, {@code ALL_OPT}); null = ORT's default (all)
 */
public record NativeRunnerOptions(Duration memorySampleInterval, Integer intraOpThreads, Integer interOpThreads,
                                  String optLevel) {
    public NativeRunnerOptions {
        if (memorySampleInterval == null || memorySampleInterval.isNegative()) {
            memorySampleInterval = Duration.ofMillis(5);
        }
        if (intraOpThreads != null && intraOpThreads < 1) {
            throw new NativeRunnerException("intra-op threads must be at least 1, got " + intraOpThreads,
                    "omit the setting to use ONNX Runtime's default");
        }
        if (interOpThreads != null && interOpThreads < 1) {
            throw new NativeRunnerException("inter-op threads must be at least 1, got " + interOpThreads,
                    "omit the setting to use ONNX Runtime's default");
        }
        if (optLevel != null && !optLevel.matches("NO_OPT|BASIC_OPT|EXTENDED_OPT|ALL_OPT")) {
            throw new NativeRunnerException("Unknown ONNX Runtime optimisation level '" + optLevel + "'",
                    "use one of NO_OPT, BASIC_OPT, EXTENDED_OPT, ALL_OPT");
        }
    }

    /** 5 ms memory sampling, ONNX Runtime's own thread and optimisation defaults. */
    public static NativeRunnerOptions defaults() {
        return new NativeRunnerOptions(Duration.ofMillis(5), null, null, null);
    }

    /** The same options with another intra-op thread count. */
    public NativeRunnerOptions withIntraOpThreads(Integer threads) {
        return new NativeRunnerOptions(memorySampleInterval, threads, interOpThreads, optLevel);
    }
}
