package dev.accelbridge.suites.audio;

/**
 * Whisper's log-mel front end, in Java: 16 kHz audio, a 400-sample (25 ms) periodic Hann window, a 160-sample
 * (10 ms) hop, a 400-point DFT on reflect-padded ("centered") frames with the last frame dropped, power
 * spectrum, 80 Slaney-style mel filters from 0 to 8000 Hz with Slaney area normalisation (librosa's
 * defaults, as Whisper's {@code mel_filters.npz}), {@code log10(max(mel, 1e-10))}, a floor at
 * {@code max - 8}, then {@code (x + 4) / 4}.
 *
 * <p>The DFT is computed directly on 400 points with precomputed twiddles (Whisper's n_fft is 400, not a
 * power of two); frames are independent, so this costs about 80k multiply-adds per frame.
 */
public final class LogMel {
    public static final int SAMPLE_RATE = 16_000;
    public static final int N_FFT = 400;
    public static final int HOP = 160;
    public static final int N_MELS = 80;
    public static final double F_MAX = 8000.0;
    private static final int BINS = N_FFT / 2 + 1;

    private static final double[][] FILTERS = melFilters(N_MELS);
    private static final double[] WINDOW = hann(N_FFT);
    private static final double[][] COS = new double[BINS][N_FFT];
    private static final double[][] SIN = new double[BINS][N_FFT];

    static {
        for (int k = 0; k < BINS; k++) {
            for (int n = 0; n < N_FFT; n++) {
                // index k*n mod N keeps the angle exact for large products
                double a = 2 * Math.PI * ((long) k * n % N_FFT) / N_FFT;
                COS[k][n] = Math.cos(a);
                SIN[k][n] = Math.sin(a);
            }
        }
    }

    private LogMel() {
    }

    /** Frames Whisper produces for {@code samples} samples: {@code samples / 160}. */
    public static int frames(int samples) {
        return samples / HOP;
    }

    /**
     * The suite's generated clip ({@link Waveforms#chirpAndTones}) at {@code frames} frames, as Whisper's features:
     * {@code [80 * frames]}, row-major {@code [80, frames]}.
     */
    public static float[] ofClip(int frames) {
        return flatten(compute(Waveforms.chirpAndTones(frames * (double) HOP / SAMPLE_RATE)));
    }

    /** The normalised log-mel spectrogram {@code [80][frames]} of 16 kHz mono audio. */
    public static float[][] compute(float[] audio) {
        double[][] power = powerSpectrogram(audio);
        int frames = power.length;
        double[][] logMel = new double[N_MELS][frames];
        double max = Double.NEGATIVE_INFINITY;
        for (int m = 0; m < N_MELS; m++) {
            for (int t = 0; t < frames; t++) {
                double s = 0;
                double[] f = FILTERS[m];
                double[] p = power[t];
                for (int k = 0; k < BINS; k++) {
                    s += f[k] * p[k];
                }
                logMel[m][t] = Math.log10(Math.max(s, 1e-10));
                max = Math.max(max, logMel[m][t]);
            }
        }
        float[][] out = new float[N_MELS][frames];
        for (int m = 0; m < N_MELS; m++) {
            for (int t = 0; t < frames; t++) {
                out[m][t] = (float) ((Math.max(logMel[m][t], max - 8.0) + 4.0) / 4.0);
            }
        }
        return out;
    }

    /** The spectrogram flattened row-major as the model input {@code [1, 80, frames]}. */
    public static float[] flatten(float[][] mel) {
        int frames = mel[0].length;
        float[] out = new float[N_MELS * frames];
        for (int m = 0; m < N_MELS; m++) {
            System.arraycopy(mel[m], 0, out, m * frames, frames);
        }
        return out;
    }

    /** {@code |STFT|^2}, {@code [frames][201]}, centered with reflect padding, last frame dropped (as Whisper). */
    public static double[][] powerSpectrogram(float[] audio) {
        int pad = N_FFT / 2;
        if (audio.length <= pad) {
            throw new IllegalArgumentException("need more than " + pad + " samples for reflect padding, got " + audio.length);
        }
        double[] x = new double[audio.length + 2 * pad];
        for (int i = 0; i < x.length; i++) {
            int j = i - pad;
            if (j < 0) {
                j = -j;
            } else if (j >= audio.length) {
                j = 2 * (audio.length - 1) - j;
            }
            x[i] = audio[j];
        }
        int frames = 1 + audio.length / HOP - 1;
        double[][] power = new double[frames][BINS];
        double[] frame = new double[N_FFT];
        for (int t = 0; t < frames; t++) {
            for (int n = 0; n < N_FFT; n++) {
                frame[n] = x[t * HOP + n] * WINDOW[n];
            }
            for (int k = 0; k < BINS; k++) {
                double re = 0;
                double im = 0;
                double[] c = COS[k];
                double[] s = SIN[k];
                for (int n = 0; n < N_FFT; n++) {
                    re += frame[n] * c[n];
                    im -= frame[n] * s[n];
                }
                power[t][k] = re * re + im * im;
            }
        }
        return power;
    }

    /** Periodic Hann window (torch.hann_window's default). */
    static double[] hann(int n) {
        double[] w = new double[n];
        for (int i = 0; i < n; i++) {
            w[i] = 0.5 - 0.5 * Math.cos(2 * Math.PI * i / n);
        }
        return w;
    }

    /** Slaney mel scale (librosa, htk=False): linear below 1 kHz, logarithmic above. */
    public static double hzToMel(double hz) {
        double fSp = 200.0 / 3;
        double minLogHz = 1000.0;
        double minLogMel = minLogHz / fSp;
        double logStep = Math.log(6.4) / 27.0;
        return hz >= minLogHz ? minLogMel + Math.log(hz / minLogHz) / logStep : hz / fSp;
    }

    /** Inverse of {@link #hzToMel}. */
    public static double melToHz(double mel) {
        double fSp = 200.0 / 3;
        double minLogHz = 1000.0;
        double minLogMel = minLogHz / fSp;
        double logStep = Math.log(6.4) / 27.0;
        return mel >= minLogMel ? minLogHz * Math.exp(logStep * (mel - minLogMel)) : fSp * mel;
    }

    /** The {@code nMels + 2} band edges in Hz, evenly spaced on the mel scale from 0 to 8000 Hz. */
    public static double[] melEdgesHz(int nMels) {
        double lo = hzToMel(0);
        double hi = hzToMel(F_MAX);
        double[] out = new double[nMels + 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = melToHz(lo + (hi - lo) * i / (nMels + 1));
        }
        return out;
    }

    /** Centre frequency in Hz of mel filter {@code m}. */
    public static double centerHz(int m) {
        return melEdgesHz(N_MELS)[m + 1];
    }

    /** Triangular filters {@code [nMels][201]} with Slaney area normalisation (librosa.filters.mel defaults). */
    public static double[][] melFilters(int nMels) {
        double[] edges = melEdgesHz(nMels);
        double[][] w = new double[nMels][BINS];
        for (int m = 0; m < nMels; m++) {
            double enorm = 2.0 / (edges[m + 2] - edges[m]);
            for (int k = 0; k < BINS; k++) {
                double f = (double) k * SAMPLE_RATE / N_FFT;
                double lower = (f - edges[m]) / (edges[m + 1] - edges[m]);
                double upper = (edges[m + 2] - f) / (edges[m + 2] - edges[m + 1]);
                w[m][k] = Math.max(0, Math.min(lower, upper)) * enorm;
            }
        }
        return w;
    }
}
