package dev.accelbridge.core;

/**
 * The most a kind of the browser's processes held resident during a case, summed over the processes of that kind
 * ({@code /proc/PID/statm} of each, by the type the browser gave it on its command line: Chromium's {@code --type=renderer},
 * {@code gpu-process}, {@code utility}, Firefox's {@code -contentproc ... tab}; the main process is {@code browser}).
 *
 * @param type      the process type, as the browser names it
 * @param peakBytes the highest sum sampled
 */
@PublicApi
public record ProcessPeak(String type, long peakBytes) {
    /** Where the figures come from. */
    public static final String SOURCE = "/proc/PID/statm of the browser's processes, by the --type on their command line, "
            + "sampled every 100 ms while the session is made and first run and once after the timed runs (not during them: "
            + "nothing of the harness runs while the page times)";

    public ProcessPeak {
        java.util.Objects.requireNonNull(type, "type");
        type = Untrusted.reason(type);
    }
}
