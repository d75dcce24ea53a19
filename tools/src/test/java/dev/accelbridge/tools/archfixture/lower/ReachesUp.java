package dev.accelbridge.tools.archfixture.lower;

/** Points up the floors: lower may use nothing of upper, published or not. */
public final class ReachesUp {
    private ReachesUp() {
    }

    static Object up() {
        return new dev.accelbridge.tools.archfixture.upper.ImportsPublished();
    }
}
