package dev.accelbridge.core;

/**
 * A case's drill-down beyond its timings and parity: why it is wrong (its bisection), where its time goes (its op
 * profile), its cold start, and its re-creation leak check. Each part is null when it was not asked for or not
 * possible; {@link #NONE} has none.
 *
 * @param bisection the first diverging node, for a WRONG_OUTPUT case (or when asked)
 * @param profile   the per-op profile ({@code --profile})
 * @param coldStart fetch / create / first run against the warm p50
 * @param recreate  the leak check ({@code --recreate N})
 */
public record Analysis(Bisection bisection, OpProfile profile, ColdStart coldStart, Recreate recreate) {
    /** No drill-down. */
    public static final Analysis NONE = new Analysis(null, null, null, null);

    /** The same with a bisection. */
    public Analysis withBisection(Bisection b) {
        return new Analysis(b, profile, coldStart, recreate);
    }

    /** Whether nothing is here. */
    public boolean isEmpty() {
        return bisection == null && profile == null && coldStart == null && recreate == null;
    }
}
