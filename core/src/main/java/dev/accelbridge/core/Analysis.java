package dev.accelbridge.core;

/**
 * A case's drill-down beyond its timings and parity: why it is wrong (its bisection) or did not load (its load
 * diagnosis), where its time goes (its op profile), its cold start, and its re-creation leak check. Each part is null when it was not asked for or not
 * possible; {@link #NONE} has none.
 *
 * @param bisection the first diverging node, for a WRONG_OUTPUT case (or when asked)
 * @param profile   the per-op profile ({@code --profile})
 * @param coldStart fetch / create / first run against the warm p50
 * @param recreate  the leak check ({@code --recreate N})
 * @param placement where the session's nodes ran (null when not checked)
 * @param readout   what a user reads off the outputs against the reference's (pooled embeddings, a similarity ranking);
 *                  null when no reading applies
 * @param computed  for a half-precision variant, whether its arithmetic ran in its declared type or in part in float32
 *                  (null when not checked)
 * @param load      why the runtime refused to load the model at the case's optimization level and which level loads it,
 *                  for a case whose load was diagnosed (null otherwise); its repro's bytes are written beside the report,
 *                  not kept here
 */
public record Analysis(Bisection bisection, OpProfile profile, ColdStart coldStart, Recreate recreate, Placement placement,
                       Readout readout, ComputedPrecision computed, LoadDiagnosis load) {
    /** No drill-down. */
    public static final Analysis NONE = new Analysis(null, null, null, null, null, null, null, null);

    public Analysis {
        load = load == null ? null : load.withRepro(null);
    }

    /** A drill-down with no load diagnosis. */
    public Analysis(Bisection bisection, OpProfile profile, ColdStart coldStart, Recreate recreate, Placement placement, Readout readout,
                    ComputedPrecision computed) {
        this(bisection, profile, coldStart, recreate, placement, readout, computed, null);
    }

    /** A drill-down without a check of where half precision ran. */
    public Analysis(Bisection bisection, OpProfile profile, ColdStart coldStart, Recreate recreate, Placement placement, Readout readout) {
        this(bisection, profile, coldStart, recreate, placement, readout, null);
    }

    /** A drill-down without a readout. */
    public Analysis(Bisection bisection, OpProfile profile, ColdStart coldStart, Recreate recreate, Placement placement) {
        this(bisection, profile, coldStart, recreate, placement, null);
    }

    /** A drill-down without placement. */
    public Analysis(Bisection bisection, OpProfile profile, ColdStart coldStart, Recreate recreate) {
        this(bisection, profile, coldStart, recreate, null);
    }

    /** The same with a bisection. */
    public Analysis withBisection(Bisection b) {
        return new Analysis(b, profile, coldStart, recreate, placement, readout, computed, load);
    }

    /** The same with where its nodes ran. */
    public Analysis withPlacement(Placement p) {
        return new Analysis(bisection, profile, coldStart, recreate, p, readout, computed, load);
    }

    /** The same with what a user reads off the outputs. */
    public Analysis withReadout(Readout r) {
        return new Analysis(bisection, profile, coldStart, recreate, placement, r, computed, load);
    }

    /** The same with where a half-precision variant's arithmetic ran. */
    public Analysis withComputed(ComputedPrecision c) {
        return new Analysis(bisection, profile, coldStart, recreate, placement, readout, c, load);
    }

    /** The same with why its load was refused and where it loads. */
    public Analysis withLoad(LoadDiagnosis d) {
        return new Analysis(bisection, profile, coldStart, recreate, placement, readout, computed, d);
    }

    /** Whether nothing is here. */
    public boolean isEmpty() {
        return bisection == null && profile == null && coldStart == null && recreate == null && placement == null && readout == null
                && computed == null && load == null;
    }
}
