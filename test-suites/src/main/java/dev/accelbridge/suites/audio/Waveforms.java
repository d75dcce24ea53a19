package dev.accelbridge.suites.audio;

/** Deterministic 16 kHz test signals for the audio suite. */
public final class Waveforms {
    private Waveforms() {
    }

    /** A pure sine of {@code hz} at amplitude {@code amp}. */
    public static float[] tone(double hz, double seconds, double amp) {
        int n = (int) Math.round(seconds * LogMel.SAMPLE_RATE);
        float[] x = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = (float) (amp * Math.sin(2 * Math.PI * hz * i / LogMel.SAMPLE_RATE));
        }
        return x;
    }

    /**
     * The suite's signal: a linear chirp from 200 Hz to 4 kHz over the whole clip, plus a 440 Hz tone in the
     * first half and a 1.5 kHz tone in the second half, with a short fade in and out.
     */
    public static float[] chirpAndTones(double seconds) {
        int n = (int) Math.round(seconds * LogMel.SAMPLE_RATE);
        float[] x = new float[n];
        double f0 = 200;
        double f1 = 4000;
        int fade = Math.min(n / 10, 800);
        for (int i = 0; i < n; i++) {
            double t = i / (double) LogMel.SAMPLE_RATE;
            double chirpPhase = 2 * Math.PI * (f0 * t + (f1 - f0) * t * t / (2 * seconds));
            double v = 0.3 * Math.sin(chirpPhase);
            v += i < n / 2 ? 0.2 * Math.sin(2 * Math.PI * 440 * t) : 0.15 * Math.sin(2 * Math.PI * 1500 * t);
            double env = Math.min(1.0, Math.min(i, n - 1 - i) / (double) fade);
            x[i] = (float) (v * env);
        }
        return x;
    }
}
