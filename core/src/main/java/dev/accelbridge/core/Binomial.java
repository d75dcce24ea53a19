package dev.accelbridge.core;

/** The binomial and Poisson binomial distributions' upper tails, for {@link LatencyFloor#of}'s evidence of samples on a poll's steps. */
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

    /** P(X ≥ k) for X the number of successes of independent trials with chances {@code p} (the Poisson binomial). */
    static double poissonTail(double[] p, int k) {
        double[] dist = new double[p.length + 1]; // dist[j]: P(j successes among the trials so far)
        dist[0] = 1;
        for (int t = 0; t < p.length; t++) {
            for (int j = t + 1; j >= 1; j--) {
                dist[j] = dist[j] * (1 - p[t]) + dist[j - 1] * p[t];
            }
            dist[0] *= 1 - p[t];
        }
        double sum = 0;
        for (int j = Math.max(0, k); j <= p.length; j++) {
            sum += dist[j];
        }
        return sum;
    }
}
