package dev.accelbridge.reports.render;

import dev.accelbridge.core.Decoding;
import dev.accelbridge.core.Interval;
import dev.accelbridge.core.RunResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The report's generation section: each executed generation with its time to first token, inter-token latency and
 * tokens per second (each with its 95 % interval), the cold generation, the KV cache, whether its tokens were verified,
 * and its tokens per second against the native CPU run of the same case on the same host, as a ratio with its interval.
 */
final class GenerationSection {
    private GenerationSection() {
    }

    static Section of(Matrix m) {
        List<Section.Row> rows = new ArrayList<>();
        for (Cell c : m.cells()) {
            RunResult r = c.result();
            Decoding d = r.timings().map(tm -> tm.figures()).orElse(null) instanceof Decoding g ? g : null;
            if (d == null || !r.status().executed()) {
                continue;
            }
            Decoding n = nativeOf(m, c);
            rows.add(Section.Row.of(d.tokensDiffered() ? "warn" : null, c.host(), c.row(), c.ranOn() + Fmt.trust(r.timings()),
                    Fmt.msCi(d.ttftP50Ms(), d.ttftCi()) + (d.encoderMs().length == 0 ? "" : " (encoder " + Fmt.ms(d.encoderP50Ms()) + ")"),
                    Fmt.ms(d.itlP50Ms()) + " / " + Fmt.ms(d.itlP90Ms()),
                    rate(d.tokensPerSec(), d.tokensPerSecCi()), n == null || n == d ? RowFigures.ABSENT : vsNative(d, n),
                    Fmt.ms(d.coldTtftMs()) + " / " + Fmt.ms(d.coldTotalMs()),
                    d.kvCacheBytes().isPresent() ? String.format(Locale.ROOT, "%.1f KiB", d.kvCacheBytes().getAsLong() / 1024.0) : RowFigures.ABSENT,
                    d.tokensWord()));
        }
        return Section.table("generation", "Generation (as MLPerf Client defines them: TTFT, inter-token latency, tokens/s = 1000 / "
                        + "mean inter-token latency; [95 % interval])", rows.isEmpty() ? null
                        : "Each step is timed until its token is known (logits read, argmax done). Tokens verified: every generation "
                        + "(cold, warm-up, timed) gave exactly the tokens of the native CPU reference; repeated (the reference "
                        + "itself): every one of its generations gave its first generation's tokens, which verifies nothing; not "
                        + "checked: there was no reference to check against. An encoder-decoder's (speech-to-"
                        + "text) TTFT includes its encoder's run, whose median is given beside it.",
                new Section.Table(List.of("host", "model", "backend", "TTFT ms", "inter-token p50 / p90 ms", "tokens/s", "tokens/s vs native CPU",
                        "cold TTFT / generation ms", "KV cache", "tokens"), rows), null);
    }

    /** The native CPU generation of the same case on the same host, if the matrix has it. */
    private static Decoding nativeOf(Matrix m, Cell c) {
        for (Cell o : m.cells()) {
            RunResult r = o.result();
            if (r.ranOnNativeCpu() && r.id().inputKey().equals(c.key().inputKey())
                    && o.host().equals(c.host()) && r.timings().map(tm -> tm.figures()).orElse(null) instanceof Decoding g) {
                return g;
            }
        }
        return null;
    }

    /** "×0.413 [0.391, 0.440]": this side's tokens/s over native's, the interval from the two sides' inter-token latencies. */
    private static String vsNative(Decoding d, Decoding n) {
        double[] r = d.tokensPerSecOver(n);
        return Double.isFinite(r[0]) ? Fmt.times(r) : RowFigures.ABSENT;
    }

    private static String rate(double tps, Interval ci) {
        return !Double.isFinite(tps) ? RowFigures.ABSENT : String.format(Locale.ROOT, "%.1f", tps) + (ci == null ? ""
                : String.format(Locale.ROOT, " [%.1f, %.1f]", ci.lo(), ci.hi()));
    }
}
