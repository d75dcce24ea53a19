package dev.accelbridge.core;

/** The binomial distribution's upper tail, for {@link SampleStats#latencyFloor}'s evidence of samples on a poll's steps. */
final class Binomial {
    private Binomial() {
    }

    /** P(X ≥ k) for X ~ Binomial(n, p), summed in logs (n up to a loop's thousand runs). */
    static double tail(int n, int k, double p) {
        if (k <= 0) {
            return 1;
        }
        if (p <= 0) {
            return 0;
        }
        double logC = 0; // log C(n, j), built up from j = 0
        double sum = 0;
        for (int j = 1; j <= n; j++) {
            logC += Math.log((double) (n - j + 1) / j);
            if (j >= k) {
                sum += Math.exp(logC + j * Math.log(p) + (n - j) * Math.log1p(-p));
            }
        }
        return sum;
    }
}
