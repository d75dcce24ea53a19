package dev.accelbridge.run;

import com.fasterxml.jackson.databind.JsonNode;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.MemoryUsage;
import dev.accelbridge.core.Timings;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The run's own account of its wall time: each part where it happened, the rest as "other". Pure, on constructed figures. */
class RunAccountTest {
    @Test
    void aCaseSplitsIntoItsMeasuredPartsAndTheRestOfItsTime() {
        RunAccount a = RunAccount.startingNow();
        Timings t = Timings.of(40, 15, 2, new double[]{10, 10, 10});
        t = t.withQuality(t.quality().withWarmupMs(20));
        // a case of 200 ms: 40 session + 15 first + 20 warm-ups + 30 timed = 105 measured, 95 the rest
        a.addCase(new Execution(List.of(), t, MemoryUsage.UNKNOWN, null, List.of()), 200_000_000L);
        assertThat(a.ms(RunAccount.Part.SESSIONS)).isCloseTo(40, within(1e-6));
        assertThat(a.ms(RunAccount.Part.FIRST)).isCloseTo(15, within(1e-6));
        assertThat(a.ms(RunAccount.Part.WARMUPS)).isCloseTo(20, within(1e-6));
        assertThat(a.ms(RunAccount.Part.TIMED)).isCloseTo(30, within(1e-6));
        assertThat(a.ms(RunAccount.Part.IN_CASE)).isCloseTo(95, within(1e-6));
        assertThat(a.computeMs()).isCloseTo(85, within(1e-6));
        // a case that did not execute is all "the rest"
        a.addCase(null, 5_000_000L);
        assertThat(a.ms(RunAccount.Part.IN_CASE)).isCloseTo(100, within(1e-6));
    }

    /** A newcomer's first run is slower than the second: the first case on each fresh page has a line of its own. */
    @Test
    void theFirstCaseOnAFreshPageIsFirstUseNotSessionsAndFirstInferences() {
        RunAccount a = RunAccount.startingNow();
        Timings t = Timings.of(400, 150, 2, new double[]{10, 10, 10});
        var cold = new dev.accelbridge.core.Analysis(null, null, new dev.accelbridge.core.ColdStart(5, 400, 150, 10, true), null, null, null);
        var warm = new dev.accelbridge.core.Analysis(null, null, new dev.accelbridge.core.ColdStart(5, 40, 15, 10, false), null, null, null);
        a.addCase(new Execution(List.of(), t, MemoryUsage.UNKNOWN, null, List.of(), cold), 600_000_000L);
        a.addCase(new Execution(List.of(), Timings.of(40, 15, 2, new double[]{10, 10, 10}), MemoryUsage.UNKNOWN, null, List.of(), warm),
                100_000_000L);
        assertThat(a.ms(RunAccount.Part.COLD)).isCloseTo(550, within(1e-6));
        assertThat(a.ms(RunAccount.Part.SESSIONS)).isCloseTo(40, within(1e-6));
        assertThat(a.ms(RunAccount.Part.FIRST)).isCloseTo(15, within(1e-6));
        assertThat(a.computeMs()).as("first use is compute too").isCloseTo(550 + 55 + 60, within(1e-6));
        assertThat(a.render()).contains("first use (fresh pages)");
    }

    @Test
    void anExclusivePartLeavesOutWhatOtherPartsClaimedMeanwhileAndOtherTakesTheRest() throws Exception {
        RunAccount a = RunAccount.startingNow();
        Thread.sleep(20);
        a.startDone();
        assertThat(a.ms(RunAccount.Part.START)).isGreaterThanOrEqualTo(19);
        a.timeExclusive(RunAccount.Part.BROWSERS, () -> {
            sleep(30);
            a.time(RunAccount.Part.STORE, () -> sleep(40));
        });
        assertThat(a.ms(RunAccount.Part.STORE)).isGreaterThanOrEqualTo(39);
        assertThat(a.ms(RunAccount.Part.BROWSERS)).isGreaterThanOrEqualTo(29).isLessThan(a.ms(RunAccount.Part.STORE) + 30);
        a.finish();
        double sum = 0;
        for (RunAccount.Part p : RunAccount.Part.values()) {
            sum += a.ms(p);
        }
        assertThat(sum).as("the parts add up to the wall time").isCloseTo(a.wallMs(), within(0.5));
        JsonNode j = a.toJson();
        assertThat(j.get("parts").get("browsers").asDouble()).isGreaterThan(0);
        assertThat(j.get("wallMs").asDouble()).isCloseTo(a.wallMs(), within(0.1));
        assertThat(a.render()).contains("where the").contains("browser launches and probes").contains("wall / compute");
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
