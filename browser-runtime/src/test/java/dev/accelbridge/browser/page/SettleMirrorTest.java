package dev.accelbridge.browser.page;

import dev.accelbridge.core.MinDurations;
import dev.accelbridge.core.Settling;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The page's warm-up rule ({@code settle.mjs}, run by Node) and the native one ({@link Settling}) take the same decisions
 * on the same runs: how many warm-ups, whether they settled, and the trend they ended on.
 */
class SettleMirrorTest {
    static final Path PAGE = Path.of("src/main/web/page");

    @Test
    void thePageAndTheNativeSideWarmUpAlike() throws Exception {
        List<double[]> series = new ArrayList<>();
        SplittableRandom r = new SplittableRandom(9);
        for (int k = 0; k < 12; k++) {
            double base = 0.2 + 300 * r.nextDouble();
            int falling = r.nextInt(60);
            double rate = r.nextDouble() < 0.2 ? 0.97 : 1;
            double[] s = new double[3000];
            for (int i = 0; i < s.length; i++) {
                s[i] = (i < falling ? base * (1.5 - 0.5 * i / falling) : base) * Math.pow(rate, i) * (1 + 0.1 * (r.nextDouble() - 0.5));
            }
            series.add(s);
        }
        StringBuilder js = new StringBuilder("import { SettleLoop } from '" + PAGE.resolve("settle.mjs").toAbsolutePath().toUri() + "';\n");
        js.append("const series = ").append(toJs(series)).append(";\nfor (const s of series) {\n")
                .append("  const l = new SettleLoop(3, 500); let t = 0, i = 0;\n")
                .append("  while (l.more(t)) { const ms = s[Math.min(i++, s.length - 1)]; l.add(ms); t += Math.floor(ms * 1e6) / 1e6; }\n")
                .append("  console.log(l.runs.length + ' ' + l.settled + ' ' + (Number.isFinite(l.trend) ? l.trend.toFixed(9) : 'NaN'));\n}\n");
        String out = NodeScript.run("settle-mirror", js.toString());
        List<String> expected = new ArrayList<>();
        for (double[] s : series) {
            Settling.Loop l = new Settling.Loop(3, new MinDurations(Duration.ofMillis(500), Duration.ZERO));
            long t = 0;
            int i = 0;
            while (l.more(t)) {
                double ms = s[Math.min(i++, s.length - 1)];
                l.add(ms);
                t += (long) Math.floor(ms * 1e6);
            }
            expected.add(l.done() + " " + l.settled() + " " + (Double.isNaN(l.trend()) ? "NaN" : String.format(Locale.ROOT, "%.9f", l.trend())));
        }
        assertThat(out.strip().lines().toList()).containsExactlyElementsOf(expected);
        assertThat(expected).anyMatch(e -> e.contains(" false ")).anyMatch(e -> e.contains(" true "));
    }

    private static String toJs(List<double[]> series) {
        StringBuilder b = new StringBuilder("[");
        for (double[] s : series) {
            b.append('[');
            for (int i = 0; i < s.length; i++) {
                b.append(i == 0 ? "" : ",").append(Double.toString(s[i]));
            }
            b.append("],");
        }
        return b.append(']').toString();
    }
}
