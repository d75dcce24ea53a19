package dev.accelbridge.reports.render;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Outcome;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Timings;

import java.util.Locale;

/**
 * A row's figures as every renderer writes them, read by its outcome's kind: what ran it, what was timed (a case that ran,
 * or a session the page timed where no backend is credited), its outputs' comparison (where a backend made them). A figure
 * the kind does not hold is {@link #ABSENT}, the one spelling of an absent figure in every report.
 *
 * @param ranOn  the backend that ran it
 * @param timed  whether it was timed (the figures below are then its own)
 * @param loadMs session creation
 * @param firstMs the first inference
 * @param p50Ms  the timed runs' median, with its interval where it has one
 * @param p90Ms  their 90th percentile
 * @param p99Ms  their 99th
 * @param compared whether its outputs were compared
 * @param maxAbsErr the largest absolute error against the reference
 * @param cosine its cosine against the reference
 */
record RowFigures(String ranOn, boolean timed, String loadMs, String firstMs, String p50Ms, String p90Ms, String p99Ms, boolean compared,
                  String maxAbsErr, String cosine) {
    /** The one spelling of a figure a row does not hold. */
    static final String ABSENT = "–";

    static RowFigures of(RunResult r) {
        Outcome o = r.outcome(); // each part as its kind holds it (Outcome's own reading)
        Timings t = o.timed().orElse(null);
        Parity q = o.compared().orElse(null);
        return new RowFigures(o.ranOn().map(BackendId::toString).orElse(ABSENT), t != null,
                t == null ? ABSENT : Fmt.ms(t.loadMs()), t == null ? ABSENT : Fmt.ms(t.firstMs()),
                t == null ? ABSENT : Fmt.msCi(t.p50Ms(), t.quality().p50Ci()), t == null ? ABSENT : Fmt.ms(t.p90Ms()),
                t == null ? ABSENT : Fmt.ms(t.p99Ms()), q != null, q == null ? ABSENT : Fmt.sci(q.maxAbsErr()),
                q == null ? ABSENT : String.format(Locale.ROOT, "%.6f", q.cosine()));
    }
}
