package dev.accelbridge.browser.page;

import dev.accelbridge.core.FloorStop;
import dev.accelbridge.core.LatencyFloor;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The page's floor rule ({@code floor.mjs}, run by Node) and the core's ({@link LatencyFloor#of},
 * {@link FloorStop}) take the same decisions on the same waits: the floor found, and whether a loop stops on it.
 */
class FloorMirrorTest {
    @Test
    void thePageAndTheCoreFindTheSameFloorsAndStopAlike() throws Exception {
        record Series(double[] waits, double timer, double readback, boolean exact) {
        }
        List<Series> all = new ArrayList<>();
        SplittableRandom r = new SplittableRandom(11);
        for (int k = 0; k < 40; k++) {
            int n = 1 + r.nextInt(14);
            double readback = switch (k % 4) {
                case 0 -> 100 + r.nextDouble();         // a polled readback (Firefox)
                case 1 -> 0.4;                          // SwiftShader
                case 2 -> 2.3;                          // the WebNN shell
                default -> Double.NaN;                  // wasm: no readback
            };
            double timer = k % 5 == 0 ? 0.02 : 0.005;
            double[] w = new double[n];
            for (int i = 0; i < n; i++) {
                w[i] = switch (k % 3) {
                    case 0 -> (1 + r.nextInt(12)) * 100 + (r.nextDouble() < 0.9 ? r.nextDouble() : 30 * r.nextDouble());
                    case 1 -> 40 + 500 * r.nextDouble();
                    default -> 0.01 + 0.1 * r.nextDouble();
                };
            }
            all.add(new Series(w, timer, readback, k % 7 == 0));
        }
        // a short readback under samples clustered on one multiple (one observation) and on four (a floor)
        for (int k = 0; k < 6; k++) {
            int steps = k % 2 == 0 ? 1 : 4;
            double[] w = new double[12];
            for (int i = 0; i < w.length; i++) {
                w[i] = 0.5 * (2 + k + i % steps) + 0.002 * r.nextDouble();
            }
            all.add(new Series(w, 0.005, 0.5, false));
        }
        // a short readback under broad times (20 % jitter, 5x to 20x it: no floor) and tight ones (1 %), and broad times each
        // learnt at the readback's next multiple (a poll: a floor)
        for (int k = 0; k < 12; k++) {
            // a poll is told from chance on several multiples, each within 2 % of itself: near 4x the readback, widely spread
            double truth = 0.4 * (k % 3 == 2 ? 4 : 5 + 15 * r.nextDouble());
            double jitter = k % 3 == 1 ? 0.01 : k % 3 == 2 ? 0.4 : 0.2;
            double[] w = new double[30];
            for (int i = 0; i < w.length; i++) {
                double t = truth * (1 + jitter * (2 * r.nextDouble() - 1) * 1.7);
                w[i] = k % 3 == 2 ? Math.ceil(t / 0.4) * 0.4 + 0.001 * r.nextDouble() : t;
            }
            all.add(new Series(w, 0.005, 0.4, false));
        }
        // each multiple's samples' median on it, but most of them off it (a third each side): no floor (the old rule's was)
        double[] medianOnly = new double[12];
        for (int i = 0; i < medianOnly.length; i++) {
            medianOnly[i] = 0.4 * (3 + i / 3) + 0.12 * (i % 3 - 1);
        }
        all.add(new Series(medianOnly, 0.005, 0.4, false));
        StringBuilder js = new StringBuilder("import { latencyFloor, stopsOnFloor } from '"
                + SettleMirrorTest.PAGE.resolve("floor.mjs").toAbsolutePath().toUri() + "';\n");
        for (Series s : all) {
            js.append("{ const w = ").append(java.util.Arrays.toString(s.waits())).append("; const c = { timerResolutionMs: ")
                    .append(s.timer()).append(", readbackMs: ").append(Double.isNaN(s.readback()) ? "null" : Double.toString(s.readback()))
                    .append(" }; const f = latencyFloor(w, c.timerResolutionMs, c.readbackMs);")
                    .append(" console.log((Number.isFinite(f) ? f.toFixed(6) : 'NaN') + ' ' + stopsOnFloor(w, c, ").append(s.exact()).append(")); }\n");
        }
        String out = NodeScript.run("floor-mirror", js.toString());
        List<String> expected = new ArrayList<>();
        for (Series s : all) {
            double fl = LatencyFloor.of(s.waits(), s.timer(), s.readback());
            expected.add((Double.isNaN(fl) ? "NaN" : String.format(java.util.Locale.ROOT, "%.6f", fl)) + " "
                    + FloorStop.stops(s.waits(), s.timer(), s.readback(), s.exact()));
        }
        assertThat(out.strip().lines().toList()).containsExactlyElementsOf(expected);
        assertThat(expected.get(expected.size() - 1)).as("samples whose multiples' medians alone sit on them").startsWith("NaN");
        List<String> constructed = expected.subList(expected.size() - 13, expected.size() - 1);
        for (int k = 0; k < 12; k++) {
            assertThat(constructed.get(k)).as("constructed series %d (%s)", k, k % 3 == 2 ? "polled" : k % 3 == 1 ? "tight" : "broad")
                    .startsWith(k % 3 == 2 ? "0.400000" : "NaN");
        }
        assertThat(expected).as("both kinds of decision are tried").anyMatch(e -> e.endsWith(" true")).anyMatch(e -> e.endsWith(" false"))
                .anyMatch(e -> e.startsWith("NaN")).anyMatch(e -> !e.startsWith("NaN"));
    }
}
